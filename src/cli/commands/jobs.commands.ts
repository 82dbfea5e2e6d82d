import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { escapeControls } from '../terminal-text.js';
import { confirmedCall } from './confirmed-call.js';
import { resolveService } from './resolve.js';

interface JobView {
  jobId: string;
  name: string;
  schedule: string;
  timezone: string;
  composeService: string;
  command: string[];
  enabled: boolean;
  nextRunAt: string | null;
  lastRun: { runId: string; status: string; at: string } | null;
}

interface RunView {
  runId: string;
  trigger: string;
  scheduledFor: string | null;
  status: string;
  reason: string | null;
  exitCode: number | null;
  startedAt: string;
  finishedAt: string | null;
}

interface SetOptions {
  schedule: string;
  timezone?: string;
  composeService?: string;
  timeLimit?: string;
  overlap?: string;
  disabled?: boolean;
  job?: string;
}

/** Scheduled jobs: cron schedules that run a command in a one-shot container of a service. */
export function registerJobCommands(program: Command): void {
  const jobs = program
    .command('jobs')
    .description('scheduled jobs: commands run on a cron schedule in a container of a service');

  jobs
    .command('list <service>')
    .description("a service's jobs, their schedule, last run and next time due")
    .action(
      action(async (run, ref: string) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        const list = await client.query<{ jobs: JobView[] }>('scheduledJobs', { serviceId });
        run.out.listing(list, list.jobs, [
          ['id', (j) => j.jobId],
          ['name', (j) => (j.enabled ? j.name : `${j.name} (disabled)`)],
          ['schedule', (j) => `${j.schedule} ${j.timezone}`],
          ['runs in', (j) => j.composeService],
          ['command', (j) => j.command.join(' ')],
          ['last run', (j) => (j.lastRun ? `${j.lastRun.status} ${j.lastRun.at}` : '')],
          ['next', (j) => j.nextRunAt ?? ''],
        ]);
      }),
    );

  jobs
    .command('set <service> <name> <command...>')
    .description('add or change a job (give --job to change one); the command follows --')
    .requiredOption('--schedule <cron>', 'e.g. "0 3 * * *" or @daily')
    .option('--timezone <zone>', 'IANA time zone the schedule is read in (default UTC)')
    .option('--compose-service <name>', 'the compose service to run in (default: the first)')
    .option('--time-limit <seconds>', 'stop and fail a run after this long (default 3600)')
    .option(
      '--overlap <policy>',
      'forbid (default: skip a run due while one runs), allow, or replace (stop it)',
    )
    .option('--disabled', 'define it without running it on schedule yet')
    .option('--job <jobId>', 'the job to change')
    .action(
      action(async (run, ref: string, name: string, command: string[], opts: SetOptions) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        const limit = opts.timeLimit === undefined ? undefined : Number(opts.timeLimit);
        if (limit !== undefined && !Number.isInteger(limit)) {
          throw new CliError('BAD_USAGE', '--time-limit is a whole number of seconds');
        }
        const done = await client.mutation<{ jobId: string; changed: boolean }>(
          'defineScheduledJob',
          {
            ...(opts.job ? { jobId: opts.job } : {}),
            serviceId,
            name,
            schedule: opts.schedule,
            command,
            ...(opts.timezone ? { timezone: opts.timezone } : {}),
            ...(opts.composeService ? { composeService: opts.composeService } : {}),
            ...(limit !== undefined ? { timeLimitSeconds: limit } : {}),
            ...(opts.overlap ? { overlap: opts.overlap } : {}),
            enabled: opts.disabled !== true,
          },
        );
        run.out.ok(
          done,
          () => `Job ${name} ${done.changed ? 'saved' : 'unchanged'}: ${done.jobId}`,
        );
      }),
    );

  jobs
    .command('run <jobId>')
    .description('run a job now, whatever its schedule')
    .action(
      action(async (run, jobId: string) => {
        const done = await run.client().mutation<{ runId: string }>('runScheduledJob', { jobId });
        run.out.ok(done, () => `Run ${done.runId} started`);
      }),
    );

  jobs
    .command('runs <jobId>')
    .description("a job's runs, newest first")
    .option('--limit <n>', '1-100', '20')
    .action(
      action(async (run, jobId: string, opts: { limit: string }) => {
        const page = await run
          .client()
          .query<{ runs: RunView[] }>('jobRuns', { jobId, limit: Number(opts.limit) });
        run.out.listing(page, page.runs, [
          ['run', (r) => r.runId],
          ['trigger', (r) => r.trigger],
          ['status', (r) => r.status],
          ['exit', (r) => (r.exitCode === null ? '' : String(r.exitCode))],
          ['why', (r) => r.reason ?? ''],
          ['started', (r) => r.startedAt],
          ['finished', (r) => r.finishedAt ?? ''],
        ]);
      }),
    );

  jobs
    .command('logs <jobId> <runId>')
    .description("a run's output")
    .action(
      action(async (run, jobId: string, runId: string) => {
        const page = await run
          .client()
          .query<{ lines: { stream: string; text: string }[] }>('jobRunLogs', {
            jobId,
            runId,
            limit: 1000,
          });
        run.out.ok(page, () => page.lines.map((l) => escapeControls(l.text)).join('\n'));
      }),
    );

  confirmedCall(jobs, {
    command: 'remove <jobId>',
    description: 'remove a job: it runs no more; its runs stay on record',
    ask: (jobId) => `Remove scheduled job ${jobId}`,
    call: (client, jobId) => client.mutation('removeScheduledJob', { jobId }),
    said: (_, jobId) => `Job ${jobId} removed`,
  });
}
