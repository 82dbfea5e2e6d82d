import type { IQueryHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { approvalRequired } from '../approval-rules.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { fail, ok, plan, shellArg, warn, type Plan } from './plan.js';
import { Planner } from './planner.js';
import { approvalCheck, queueCheck, serverChecks } from './preflight-checks.js';

export class BackupRestorePlanInput {
  @IsUUID()
  backupId!: string;
}

export class BackupRestorePlan extends ProcedureQuery<BackupRestorePlanInput, Plan> {}

/** Restoring a recorded backup; a restore always takes a second person's approval. */
@Procedure.planning(BackupRestorePlan, {
  name: 'backupRestorePlan',
  roles: DEPLOYERS,
  scopes: ['deploy:plan'],
  input: BackupRestorePlanInput,
  description: 'Preflight checks and steps for restoring a recorded backup.',
  project: { backup: 'backupId' },
})
export class BackupRestorePlanHandler implements IQueryHandler<BackupRestorePlan> {
  constructor(
    private readonly planner: Planner,
    private readonly lookup: DeploymentLookup,
  ) {}

  async execute({ input, ctx }: BackupRestorePlan): Promise<Plan> {
    const backup = await this.lookup.backup(input.backupId);
    const service = await this.lookup.service(backup.serviceId);
    const needsApproval = approvalRequired(service.approvalRule, ctx.principal!);
    const checks = [
      ok(
        'backup-exists',
        `${backup.location} (${backup.sizeBytes} bytes, taken ${backup.takenAt})`,
      ),
      backup.volume
        ? ok('restore-command', `volume ${backup.volume}: replaced by the backup's tar`)
        : service.restoreCommand
          ? ok('restore-command', service.restoreCommand)
          : warn('restore-command', 'the service defines no restore command yet (updateService)'),
      /^sha256:[a-f0-9]{64}$/.test(backup.checksum)
        ? ok('checksum-present', backup.checksum)
        : fail('checksum-present', 'the backup has no usable checksum'),
      ...serverChecks(await this.planner.serverOrNull(service.serverId)),
      queueCheck(await this.planner.activeCount(service.id)),
      approvalCheck(
        true,
        needsApproval ? service.approvalRule : 'restores are always approved by a second person',
      ),
    ];
    const steps = [
      'read the artifact Slipway holds',
      'verify its SHA-256 against the recorded checksum (a mismatch refuses the restore)',
      'connect to the server with its pinned host key',
      backup.volume
        ? `stop the containers that use volume ${backup.volume}, replace its content with the artifact's, start them again`
        : "run the service's restore command with the artifact on its standard input",
    ];
    const reason = shellArg(`Restore ${service.name} from backup ${backup.id}`);
    return plan(
      checks,
      steps,
      true,
      `slipway approvals request --action restore --service ${service.id} --backup ${backup.id} --reason ${reason} --yes`,
    );
  }
}
