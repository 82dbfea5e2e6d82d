import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { table } from '../output.js';
import { resolveServer, resolveService } from './resolve.js';

type Values = Record<string, number | null | undefined>;
interface Point {
  at: string;
  values: Values;
  max: Values;
}

const PERCENT = ['cpuPercent', 'memoryPercent', 'diskPercent'];
const BYTES = ['memoryBytes', 'dockerDiskBytes'];

function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.round(value * 10) / 10} ${units[unit]}`;
}

function shown(metric: string, n: number | null): string {
  if (n === null) return '-';
  if (PERCENT.includes(metric)) return `${Math.round(n * 10) / 10}%`;
  if (BYTES.includes(metric)) return bytes(n);
  return String(n);
}

/** Each metric of a series: its latest reading, and the mean and highest over the window. */
export function summary(points: Point[], metrics: string[]): string[][] {
  return metrics.map((metric) => {
    const read = points
      .map((p) => ({ value: p.values[metric], max: p.max[metric] }))
      .filter((r): r is { value: number; max: number } => typeof r.value === 'number');
    const latest = read.at(-1)?.value ?? null;
    const mean = read.length ? read.reduce((s, r) => s + r.value, 0) / read.length : null;
    const max = read.length ? Math.max(...read.map((r) => r.max ?? r.value)) : null;
    return [metric, shown(metric, latest), shown(metric, mean), shown(metric, max)];
  });
}

function hours(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 720) {
    throw new CliError('BAD_USAGE', '--hours is a whole number from 1 to 720');
  }
  return n;
}

/** Resource use history: a server's, or each of a service's containers'. */
export function registerUsageCommands(program: Command): void {
  const usage = program
    .command('usage')
    .description('resource use over time, from the metrics Slipway collects over SSH');

  usage
    .command('server <server>')
    .description("a server's CPU, memory, disk and Docker disk use: latest, mean and highest")
    .option('--hours <n>', 'how far back, 1-720', '6')
    .action(
      action(async (run, ref: string, opts: { hours: string }) => {
        const client = run.client();
        const answer = await client.query<{ resolution: string; points: Point[] }>(
          'serverMetrics',
          { serverId: await resolveServer(client, ref), hours: hours(opts.hours) },
        );
        run.out.ok(answer, () =>
          answer.points.length === 0
            ? 'No metrics read yet'
            : table(
                ['metric', 'latest', 'mean', 'highest'],
                summary(answer.points, [...PERCENT, 'memoryBytes', 'dockerDiskBytes']),
              ),
        );
      }),
    );

  usage
    .command('service <service>')
    .description("each container's CPU, memory and restarts: latest, mean and highest")
    .option('--hours <n>', 'how far back, 1-720', '6')
    .action(
      action(async (run, ref: string, opts: { hours: string }) => {
        const client = run.client();
        const answer = await client.query<{
          containers: {
            container: string;
            state: string | null;
            health: string | null;
            points: Point[];
          }[];
        }>('serviceMetrics', {
          serviceId: await resolveService(client, ref),
          hours: hours(opts.hours),
        });
        run.out.ok(answer, () =>
          answer.containers.length === 0
            ? 'No metrics read yet'
            : table(
                ['container', 'state', 'metric', 'latest', 'mean', 'highest'],
                answer.containers.flatMap((c) =>
                  summary(c.points, ['cpuPercent', 'memoryPercent', 'memoryBytes', 'restarts']).map(
                    (row) => [c.container, [c.state, c.health].filter(Boolean).join(' '), ...row],
                  ),
                ),
              ),
        );
      }),
    );
}
