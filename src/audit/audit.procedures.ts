import { Injectable } from '@nestjs/common';
import {
  Command,
  CommandBus,
  CommandHandler,
  Query,
  QueryBus,
  QueryHandler,
  type ICommandHandler,
  type IQueryHandler,
} from '@nestjs/cqrs';
import type { RequestContext } from '../kernel/request-context.js';
import { Procedure } from '../kernel/procedure.js';
import { AuditSealer, type SealedCheckpoint } from './audit-sealer.js';
import { AuditVerification } from './audit-verification.js';
import type { VerificationReport } from './audit-verification.js';
import { EraseSubjectDataInput, VerifyAuditTrailInput } from './audit.inputs.js';
import { EraseSubjectDataCommand } from './privacy/erase-subject-data.handler.js';
import { AuditTrailInput } from './trail/audit-trail.inputs.js';
import { AuditTrailQuery } from './trail/audit-trail.query.js';
import { ADMINS, OWNERS } from '../kernel/roles.js';

export class VerifyAuditTrailQuery extends Query<VerificationReport> {
  constructor(readonly range: VerifyAuditTrailInput) {
    super();
  }
}
export class SealAuditCheckpointCommand extends Command<SealedCheckpoint | null> {
  constructor(readonly ctx: RequestContext) {
    super();
  }
}

@QueryHandler(VerifyAuditTrailQuery)
export class VerifyAuditTrailHandler implements IQueryHandler<VerifyAuditTrailQuery> {
  constructor(private readonly verification: AuditVerification) {}
  execute({ range }: VerifyAuditTrailQuery) {
    return this.verification.verify(range);
  }
}

@CommandHandler(SealAuditCheckpointCommand)
export class SealAuditCheckpointHandler implements ICommandHandler<SealAuditCheckpointCommand> {
  constructor(private readonly sealer: AuditSealer) {}
  execute({ ctx }: SealAuditCheckpointCommand) {
    return this.sealer.seal(ctx);
  }
}

@Injectable()
export class AuditProcedures {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {}

  @Procedure({
    name: 'verifyAuditTrail',
    lane: 'read',
    auth: 'authenticated',
    roles: ADMINS,
    scopes: ['audit:read'],
    input: VerifyAuditTrailInput,
    description:
      'Recomputes the hash chain (all events, or fromPosition-toPosition from the signed checkpoint before it) and checks the checkpoints; names the first bad position.',
  })
  verifyAuditTrail(input: VerifyAuditTrailInput | undefined) {
    return this.queries.execute(new VerifyAuditTrailQuery(input ?? {}));
  }

  @Procedure({
    name: 'auditTrail',
    lane: 'read',
    auth: 'authenticated',
    roles: ADMINS,
    scopes: ['audit:read'],
    input: AuditTrailInput,
    description:
      'Who did what, when, with which credential, from where: every event and refused call, newest first; filters by actor, action, stream, resource, outcome and time.',
  })
  auditTrail(input: AuditTrailInput | undefined) {
    return this.queries.execute(new AuditTrailQuery(input ?? {}));
  }

  @Procedure({
    name: 'eraseSubjectData',
    lane: 'command',
    auth: 'authenticated',
    roles: OWNERS,
    scopes: ['privacy:erase'],
    input: EraseSubjectDataInput,
    description:
      "Erases a deactivated user's personal data (email, name, client addresses) from every event by deleting their key; the audit chain still verifies.",
  })
  eraseSubjectData(input: EraseSubjectDataInput, ctx: RequestContext) {
    return this.commands.execute(new EraseSubjectDataCommand(input.userId, ctx));
  }

  @Procedure({
    name: 'sealAuditCheckpoint',
    lane: 'command',
    auth: 'authenticated',
    roles: ADMINS,
    scopes: ['audit:seal'],
    description:
      'Seals a signed checkpoint of the audit chain now (also done every N events or T seconds).',
  })
  sealAuditCheckpoint(_input: undefined, ctx: RequestContext) {
    return this.commands.execute(new SealAuditCheckpointCommand(ctx));
  }
}
