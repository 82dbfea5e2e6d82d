import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import type { BackupScheduleDoc } from '../../../projections/backup-schedules.projection.js';
import { badRequest } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { mayChooseTestCommand } from '../../deployments/backup-schedules/chosen-test-command.js';
import { assertNotHeldBack } from '../../deployments/approval-rules.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { StreamFacts } from '../../deployments/facts/stream-facts.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { TestBackupRestoreInput } from './restore-test.input.js';
import { RestoreTester, testToRun, type RestoreTestOutcome } from './restore-tester.js';

export class TestBackupRestore extends ProcedureCommand<
  TestBackupRestoreInput,
  RestoreTestOutcome
> {}

@Procedure.command(TestBackupRestore, {
  name: 'testBackupRestore',
  roles: DEPLOYERS,
  scopes: ['backup:write'],
  input: TestBackupRestoreInput,
  description:
    "Restores a backup into a scratch container on the service's server (never into the service): the artifact is verified, then piped into a test command in a one-shot container without network (e.g. pg_restore --list; a volume's tar is unpacked by default). The outcome is recorded and a failure notified. A caller the service's approval rule holds back runs the schedule's test only (a chosen image and command: 403, `rule: \"approval-rule\"`).",
  project: { backup: 'backupId' },
})
export class TestBackupRestoreHandler implements ICommandHandler<TestBackupRestore> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly tester: RestoreTester,
    private readonly facts: StreamFacts,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ input, ctx }: TestBackupRestore): Promise<RestoreTestOutcome> {
    const backup = await this.lookup.backup(input.backupId);
    if ((input.image === undefined) !== (input.command === undefined)) {
      throw badRequest('give an image and a command, or neither', [
        { path: input.image ? 'command' : 'image', message: 'required with the other' },
      ]);
    }
    if (input.image !== undefined) {
      mayChooseTestCommand('testBackupRestore', ctx);
      // A chosen test runs on the service's server with no approval: not around its rule.
      const { approvalRule } = await this.facts.service(backup.serviceId);
      assertNotHeldBack(
        approvalRule,
        ctx,
        "choose a restore test's image and command (leave them out to run its schedule's test)",
        'image',
      );
    }
    const schedule = await this.reads
      .collection<BackupScheduleDoc>('backup_schedules')
      .get(backup.serviceId);
    const settings = input.image
      ? { image: input.image, command: input.command! }
      : {
          image: schedule?.restoreTest?.image ?? null,
          command: schedule?.restoreTest?.command ?? null,
        };
    const run = testToRun(backup, settings, this.config.volumeHelperImage);
    if (!run) {
      throw badRequest('name the image and command that test this backup', [
        { path: 'image', message: "required: the backup is a backup command's output" },
      ]);
    }
    const timeLimitSeconds =
      input.timeLimitSeconds ?? schedule?.restoreTest?.timeLimitSeconds ?? 1800;
    return this.tester.test(backup, { ...run, timeLimitSeconds }, ctx);
  }
}
