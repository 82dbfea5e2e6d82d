import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../kernel/procedure.js';
import { AuditSealer } from './audit-sealer.js';
import {
  EraseSubjectDataHandler,
  EraseSubjectDataInput,
} from './privacy/erase-subject-data.handler.js';
import { AuditTrailHandler, AuditTrailInput } from './trail/audit-trail.query.js';
import { VerifyAuditTrailHandler, VerifyAuditTrailInput } from './verify-audit-trail.query.js';
import { ADMINS, OWNERS } from '../kernel/roles.js';

@Injectable()
export class SealAuditCheckpointHandler {
  constructor(private readonly sealer: AuditSealer) {}
  execute(ctx: RequestContext) {
    return this.sealer.seal(ctx);
  }
}

@Injectable()
export class AuditProcedures {
  constructor(
    private readonly auditTrailHandler: AuditTrailHandler,
    private readonly eraseSubjectDataHandler: EraseSubjectDataHandler,
    private readonly sealAuditCheckpointHandler: SealAuditCheckpointHandler,
    private readonly verifyAuditTrailHandler: VerifyAuditTrailHandler,
  ) {}

  @Procedure.read({
    name: 'verifyAuditTrail',
    roles: ADMINS,
    scopes: ['audit:read'],
    input: VerifyAuditTrailInput,
    description:
      'Recomputes the hash chain (all events, or fromPosition-toPosition from the signed checkpoint before it) and checks the checkpoints; names the first bad position.',
  })
  verifyAuditTrail(input: VerifyAuditTrailInput | undefined) {
    return this.verifyAuditTrailHandler.execute(input ?? {});
  }

  @Procedure.read({
    name: 'auditTrail',
    roles: ADMINS,
    scopes: ['audit:read'],
    input: AuditTrailInput,
    description:
      'Who did what, when, with which credential, from where: every event and refused call, newest first; filters by actor, action, stream, resource, outcome and time.',
  })
  auditTrail(input: AuditTrailInput | undefined) {
    return this.auditTrailHandler.execute(input ?? {});
  }

  @Procedure.command({
    name: 'eraseSubjectData',
    roles: OWNERS,
    scopes: ['privacy:erase'],
    input: EraseSubjectDataInput,
    description:
      "Erases a deactivated user's personal data (email, name, client addresses) from every event by deleting their key; the audit chain still verifies.",
  })
  eraseSubjectData(input: EraseSubjectDataInput, ctx: RequestContext) {
    return this.eraseSubjectDataHandler.execute(input.userId, ctx);
  }

  @Procedure.command({
    name: 'sealAuditCheckpoint',
    roles: ADMINS,
    scopes: ['audit:seal'],
    description:
      'Seals a signed checkpoint of the audit chain now (also done every N events or T seconds).',
  })
  sealAuditCheckpoint(_input: undefined, ctx: RequestContext) {
    return this.sealAuditCheckpointHandler.execute(ctx);
  }
}
