import type { Command } from 'commander';
import type { Durations } from '../../deployments/metrics/delivery-metrics.js';
import type { DeliveryMetricsAnswer } from '../../deployments/queries/delivery-metrics.js';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { columnTable } from '../output.js';
import { resolveService } from './resolve.js';

/** Seconds as the largest sensible unit: 45s, 12m, 3.5h, 2.1d. */
export function humanDuration(seconds: number): string {
  if (seconds < 90) return `${seconds}s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 360) / 10}h`;
  return `${Math.round(seconds / 8640) / 10}d`;
}

const median = (d: Durations | null) => (d ? humanDuration(d.median) : '-');
const rate = (r: number | null) => (r === null ? '-' : `${Math.round(r * 1000) / 10}%`);

export function registerMetricsCommand(program: Command): void {
  program
    .command('metrics')
    .description(
      'delivery metrics: deployment frequency, lead time, change failure rate, time to restore',
    )
    .option('--days <n>', 'whole UTC days up to today, 1-90', '30')
    .option('--service <service>', 'id, name or name@env')
    .option('--environment <env>', 'only this environment')
    .action(
      action(async (run, opts: { days: string; service?: string; environment?: string }) => {
        const days = Number(opts.days);
        if (!Number.isInteger(days) || days < 1 || days > 90) {
          throw new CliError('BAD_REQUEST', '--days must be a whole number from 1 to 90');
        }
        const client = run.client();
        const serviceId = opts.service ? await resolveService(client, opts.service) : undefined;
        const answer = await client.query<DeliveryMetricsAnswer>('deliveryMetrics', {
          windowDays: days,
          serviceId,
          environment: opts.environment,
        });
        run.out.ok(answer, () =>
          [
            `${answer.window.days} days: ${answer.window.from.slice(0, 10)} to ${answer.window.to.slice(0, 10)} (UTC, end excluded)`,
            columnTable(
              [...answer.services, answer.overall],
              [
                [
                  'service',
                  (m) => (m.serviceName ? `${m.serviceName}@${m.environment}` : 'all services'),
                ],
                ['deploys', (m) => `${m.deploymentsPerDay}/day (${m.succeeded})`],
                ['lead time (median)', (m) => median(m.leadTimeSeconds)],
                ['change failure rate', (m) => rate(m.changeFailureRate)],
                ['time to restore (median)', (m) => median(m.timeToRestoreSeconds)],
                ['not restored', (m) => m.unrestoredFailures],
              ],
            ),
          ].join('\n'),
        );
      }),
    );
}
