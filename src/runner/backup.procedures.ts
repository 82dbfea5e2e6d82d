import { Injectable } from '@nestjs/common';
import { IsUUID } from 'class-validator';
import type { RequestContext } from '../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../kernel/procedure.js';
import { BackupTaker } from './backup-taker.js';
import { DEPLOYERS } from '../kernel/roles.js';
import { RestoreBackupInput, RestoreRunner } from './restore/restore-runner.js';

export class TriggerBackupInput {
  @IsUUID()
  serviceId!: string;
}

@Injectable()
export class TriggerBackupHandler {
  constructor(private readonly backups: BackupTaker) {}

  execute(serviceId: string, ctx: RequestContext) {
    return this.backups.take(serviceId, ctx);
  }
}

@Injectable()
export class BackupProcedures {
  constructor(
    private readonly triggerBackupHandler: TriggerBackupHandler,
    private readonly restoreRunner: RestoreRunner,
  ) {}

  @Procedure.command({
    name: 'triggerBackup',
    roles: DEPLOYERS,
    scopes: ['backup:write'],
    input: TriggerBackupInput,
    description: "Runs the service's backup command over SSH; records location, SHA-256 and size.",
  })
  triggerBackup(input: TriggerBackupInput, ctx: RequestContext) {
    return this.triggerBackupHandler.execute(input.serviceId, ctx);
  }

  @Procedure.command({
    name: 'restoreBackup',
    roles: DEPLOYERS,
    scopes: ['backup:write'],
    input: RestoreBackupInput,
    description:
      "Runs an approved restore (approvalId of an approved restore request for this backup, used once): verifies the artifact's SHA-256 (a mismatch is refused and recorded), then runs the service's restore command over SSH with the artifact on stdin; the outcome is recorded.",
  })
  restoreBackup(input: RestoreBackupInput, ctx: RequestContext) {
    return this.restoreRunner.restore(input, ctx);
  }
}
