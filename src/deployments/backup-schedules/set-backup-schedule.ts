import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { badRequest, conflict, notFound } from '../../common/app-error.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import {
  backupScheduleStream,
  type RestoreTestSettings,
} from '../../events/backup-schedules.events.js';
import { AccessService, type AccessTarget } from '../../access/access.service.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { scheduleProblem } from '../jobs/cron-schedule.js';
import { backupScheduleDecider } from './backup-schedule.decider.js';
import {
  offsiteOf,
  SetBackupScheduleInput,
  type RestoreTestInput,
} from './backup-schedule.input.js';
import { assertNamedVolume } from '../compose-volumes.js';
import { mayChooseTestCommand } from './chosen-test-command.js';

/** A schedule's restore test: image and command both or neither (only for volumes alone). */
function restoreTestOf(input: RestoreTestInput, command: boolean): RestoreTestSettings {
  if ((input.image === undefined) !== (input.command === undefined)) {
    throw badRequest('give the restore test an image and a command, or neither', [
      { path: input.image ? 'restoreTest.command' : 'restoreTest.image', message: 'required' },
    ]);
  }
  if (!input.image && command) {
    throw badRequest("the backup command's output is tested by an image and a command", [
      { path: 'restoreTest.image', message: 'required when the backup command runs' },
    ]);
  }
  return {
    image: input.image ?? null,
    command: input.command ?? null,
    timeLimitSeconds: input.timeLimitSeconds ?? 1800,
  };
}

const SET_BACKUP_SCHEDULE = {
  roles: DEPLOYERS,
  scopes: ['backup:write'],
} as const satisfies Pick<AccessTarget, 'roles' | 'scopes'>;

export class SetBackupSchedule extends ProcedureCommand<
  SetBackupScheduleInput,
  { serviceId: string; changed: boolean }
> {}

@Procedure.command(SetBackupSchedule, {
  name: 'setBackupSchedule',
  ...SET_BACKUP_SCHEDULE,
  input: SetBackupScheduleInput,
  description:
    'Sets when a service’s backups are taken by themselves (a cron schedule in a time zone): its backup command and named volumes; how many are kept (newest N, one a day for N days, one a week for N weeks; older ones are deleted); where each is copied (a server over SFTP, or S3); and a test restore of each into a scratch container. A caller the service’s approval rule holds back may keep or drop the restore test, not choose its image or command (403, `rule: "approval-rule"`).',
  project: { service: 'serviceId' },
})
export class SetBackupScheduleHandler implements ICommandHandler<SetBackupSchedule> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
    private readonly facts: StreamFacts,
    private readonly access: AccessService,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async execute({ input, ctx }: SetBackupSchedule) {
    const timezone = input.timezone ?? 'UTC';
    const problem = await scheduleProblem(input.schedule, timezone);
    if (problem) throw badRequest(problem, [{ path: 'schedule', message: problem }]);
    // From the service's own stream: its rule decides who may choose a restore test.
    const service = await this.facts.service(input.serviceId);
    const command = input.command ?? Boolean(service.backupCommand);
    if (command && !service.backupCommand) {
      throw conflict('The service defines no backup command');
    }
    const volumes = input.volumes ?? [];
    volumes.forEach((v, i) => assertNamedVolume(service.compose, v, `volumes.${i}`));
    if (!command && volumes.length === 0) {
      throw badRequest('nothing to back up: the backup command or a volume', [
        { path: 'volumes', message: 'name a volume, or run the backup command' },
      ]);
    }
    const restoreTest = input.restoreTest ? restoreTestOf(input.restoreTest, command) : null;
    // The schedule's test command runs on every backup's data: as choosing one now would.
    if (restoreTest?.command) mayChooseTestCommand('setBackupSchedule', ctx);
    const offsite = input.offsite ? offsiteOf(input.offsite, 'offsite') : null;
    if (offsite && 'serverId' in offsite) {
      const server = await this.lookup.server(offsite.serverId);
      // The copies' server may be another project's: writing there is judged there too.
      await this.access.alsoIn({ name: 'setBackupSchedule', ...SET_BACKUP_SCHEDULE }, ctx, {
        server: server.id,
      });
      if (!server.hostKeyApproved) {
        throw conflict(`Approve the host key of server ${server.name} first`);
      }
    }
    if (offsite && 's3TargetId' in offsite) {
      const target = await this.reads.collection('s3_targets').get(offsite.s3TargetId);
      if (!target) throw notFound('No such S3 target');
    }
    const retention = {
      keepLast: input.keepLast ?? 7,
      keepDaily: input.keepDaily ?? 7,
      keepWeekly: input.keepWeekly ?? 4,
    };
    const decision = await this.runner.run(
      backupScheduleStream(service.id),
      backupScheduleDecider,
      {
        kind: 'set',
        settings: {
          serviceId: service.id,
          schedule: input.schedule,
          timezone,
          retention,
          enabled: input.enabled ?? true,
          offsite,
          command,
          volumes,
          restoreTest,
        },
        by: ctx,
        rule: service.approvalRule,
      },
      ctx,
    );
    return { serviceId: service.id, changed: decision.events.length > 0 };
  }
}
