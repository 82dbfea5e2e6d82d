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
import type { RequestContext } from '../access/request-context.js';
import { Procedure } from '../rpc/procedure.js';
import { AuditSealer, type SealedCheckpoint } from './audit-sealer.js';
import { AuditVerification } from './audit-verification.js';
import type { TrailReport } from './trail-verifier.js';

export class VerifyAuditTrailQuery extends Query<TrailReport & { publicKey: string }> {}
export class SealAuditCheckpointCommand extends Command<SealedCheckpoint | null> {
  constructor(readonly ctx: RequestContext) {
    super();
  }
}

@QueryHandler(VerifyAuditTrailQuery)
export class VerifyAuditTrailHandler implements IQueryHandler<VerifyAuditTrailQuery> {
  constructor(private readonly verification: AuditVerification) {}
  execute() {
    return this.verification.verify();
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
    roles: ['owner', 'admin'],
    scopes: ['audit:read'],
    description:
      'Recomputes the hash chain over every event and checks the signed checkpoints; names the first bad position.',
  })
  verifyAuditTrail() {
    return this.queries.execute(new VerifyAuditTrailQuery());
  }

  @Procedure({
    name: 'sealAuditCheckpoint',
    lane: 'command',
    auth: 'authenticated',
    roles: ['owner', 'admin'],
    scopes: ['audit:seal'],
    description:
      'Seals a signed checkpoint of the audit chain now (also done every N events or T seconds).',
  })
  sealAuditCheckpoint(_input: undefined, ctx: RequestContext) {
    return this.commands.execute(new SealAuditCheckpointCommand(ctx));
  }
}
