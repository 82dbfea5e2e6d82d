import type { ICommandHandler } from '@nestjs/cqrs';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { AuditSealer, type SealedCheckpoint } from './audit-sealer.js';

/** Null when there is nothing new to seal. */
export class SealAuditCheckpoint extends ProcedureCommand<undefined, SealedCheckpoint | null> {}

/** Seals now what the sealer otherwise seals every N events or T seconds (one seal at a time). */
@Procedure.command(SealAuditCheckpoint, {
  name: 'sealAuditCheckpoint',
  roles: ADMINS,
  scopes: ['audit:seal'],
  description:
    'Seals a signed checkpoint of the audit chain now (also done every N events or T seconds).',
})
export class SealAuditCheckpointHandler implements ICommandHandler<SealAuditCheckpoint> {
  constructor(private readonly sealer: AuditSealer) {}

  execute({ ctx }: SealAuditCheckpoint): Promise<SealedCheckpoint | null> {
    return this.sealer.seal(ctx);
  }
}
