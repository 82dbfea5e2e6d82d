import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { keyValues } from '../output.js';
import { confirmedCall } from './confirmed-call.js';
import { resolveServer, resolveService } from './resolve.js';

interface ScheduleView {
  schedule: string;
  timezone: string;
  retention: { keepLast: number; keepDaily: number; keepWeekly: number };
  enabled: boolean;
  offsite: { serverId: string; directory: string } | { s3TargetId: string } | null;
  nextRunAt: string | null;
  lastRun: { scheduledFor: string; backupId: string | null; at: string } | null;
}

interface ScheduleOptions {
  cron?: string;
  timezone?: string;
  keepLast?: string;
  keepDaily?: string;
  keepWeekly?: string;
  copyTo?: string;
  copyDirectory?: string;
  copyToS3?: string;
  volume?: string[];
  noCommand?: boolean;
  command?: boolean;
  restoreTest?: boolean;
  testImage?: string;
  disabled?: boolean;
}

/** The schedule's test restore: `--restore-test`, with `--test-image` and a command after `--`. */
function restoreTestOf(opts: ScheduleOptions, command: string[]) {
  if (!opts.restoreTest) return undefined;
  if (!opts.testImage !== (command.length === 0)) {
    throw new CliError('BAD_USAGE', 'Give --test-image with a test command after --, or neither');
  }
  return opts.testImage ? { image: opts.testImage, command } : {};
}

const count = (flag: string, value: string | undefined) => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new CliError('BAD_USAGE', `${flag} is a whole number`);
  return n;
};

/** `backups schedule` (show or set) and `backups unschedule`, under `slipway backups`. */
export function registerBackupScheduleCommands(backups: Command): void {
  backups
    .command('schedule <service> [testCommand...]')
    .description("show a service's backup schedule, or set it with --cron (and its retention)")
    .option('--cron <schedule>', 'e.g. "0 3 * * *" or @daily')
    .option('--timezone <zone>', 'IANA time zone of the schedule and of retention days (UTC)')
    .option('--keep-last <n>', 'keep the newest n scheduled backups (7)')
    .option('--keep-daily <n>', 'keep the newest backup of each of the last n days (7)')
    .option('--keep-weekly <n>', 'keep the newest backup of each of the last n weeks (4)')
    .option('--copy-to <server>', 'copy each backup to this server over SFTP')
    .option('--copy-directory <path>', 'where on it (with --copy-to)')
    .option('--copy-to-s3 <target>', 'or copy each backup to this S3 target')
    .option('--volume <name...>', 'also tar these named volumes of the compose file')
    .option('--no-command', "do not run the service's backup command (volumes only)")
    .option('--restore-test', 'test-restore each backup into a scratch container')
    .option('--test-image <image>', 'the image of the test (its command follows --)')
    .option('--disabled', 'set it without taking backups yet')
    .action(
      action(async (run, ref: string, testCommand: string[], opts: ScheduleOptions) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        if (opts.cron) {
          const keepLast = count('--keep-last', opts.keepLast);
          const keepDaily = count('--keep-daily', opts.keepDaily);
          const keepWeekly = count('--keep-weekly', opts.keepWeekly);
          if (!opts.copyTo !== !opts.copyDirectory) {
            throw new CliError('BAD_USAGE', 'Give --copy-to and --copy-directory together');
          }
          const offsite = opts.copyToS3
            ? { s3TargetId: opts.copyToS3 }
            : opts.copyTo
              ? {
                  serverId: await resolveServer(client, opts.copyTo),
                  directory: opts.copyDirectory,
                }
              : undefined;
          const done = await client.mutation<{ changed: boolean }>('setBackupSchedule', {
            serviceId,
            schedule: opts.cron,
            ...(opts.timezone ? { timezone: opts.timezone } : {}),
            ...(keepLast !== undefined ? { keepLast } : {}),
            ...(keepDaily !== undefined ? { keepDaily } : {}),
            ...(keepWeekly !== undefined ? { keepWeekly } : {}),
            ...(offsite ? { offsite } : {}),
            ...(opts.volume ? { volumes: opts.volume } : {}),
            ...(opts.command === false ? { command: false } : {}),
            ...(opts.restoreTest ? { restoreTest: restoreTestOf(opts, testCommand) } : {}),
            enabled: opts.disabled !== true,
          });
          run.out.ok(
            done,
            () => `Backup schedule of ${ref} ${done.changed ? 'saved' : 'unchanged'}`,
          );
          return;
        }
        const { schedule } = await client.query<{ schedule: ScheduleView | null }>(
          'backupSchedule',
          { serviceId },
        );
        run.out.ok({ schedule }, () =>
          schedule
            ? keyValues([
                ['schedule', `${schedule.schedule} (${schedule.timezone})`],
                [
                  'keeps',
                  `last ${schedule.retention.keepLast}, daily ${schedule.retention.keepDaily}, weekly ${schedule.retention.keepWeekly}`,
                ],
                ['enabled', schedule.enabled],
                [
                  'copies to',
                  !schedule.offsite
                    ? '-'
                    : 's3TargetId' in schedule.offsite
                      ? `S3 target ${schedule.offsite.s3TargetId}`
                      : `${schedule.offsite.serverId}:${schedule.offsite.directory}`,
                ],
                ['next', schedule.nextRunAt ?? '-'],
                [
                  'last',
                  schedule.lastRun
                    ? `${schedule.lastRun.at} ${schedule.lastRun.backupId ?? 'failed'}`
                    : '-',
                ],
              ])
            : `${ref} has no backup schedule`,
        );
      }),
    );
  confirmedCall(backups, {
    command: 'unschedule <service>',
    description: 'stop scheduled backups of a service (the backups taken stay)',
    resolve: resolveService,
    ask: (ref) => `Stop scheduled backups of ${ref}`,
    call: (client, serviceId) => client.mutation('removeBackupSchedule', { serviceId }),
    said: (_, ref) => `Scheduled backups of ${ref} stopped`,
  });
}
