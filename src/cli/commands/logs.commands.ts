import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { followStream } from '../follow-stream.js';
import { keyValues } from '../output.js';
import { escapeControls } from '../terminal-text.js';
import { resolveService } from './resolve.js';

interface Line {
  line: number;
  step?: string;
  stream: string;
  text: string;
}

const shown = (l: Line) => `${l.step ? `[${l.step}] ` : ''}${l.text}`;

/** `--tail`/`--seconds` as numbers in their bounds, refused here rather than sent. */
function bounded(name: string, value: string, min: number, max: number): number {
  const n = /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) {
    throw new CliError('BAD_USAGE', `--${name} must be a number from ${min} to ${max}`);
  }
  return n;
}

export function registerLogsCommands(program: Command): void {
  program
    .command('logs <deploymentId>')
    .description("a deployment's output; --follow streams it live until the deployment ends")
    .option('--follow', 'stream new lines as they are written, then the final status')
    .option('--after <line>', 'only lines after this number', '0')
    .action(
      action(async (run, deploymentId: string, opts: { follow?: boolean; after: string }) => {
        const client = run.client();
        const after = bounded('after', opts.after, 0, 1_000_000_000);
        if (!opts.follow) {
          const logs = await client.query<{ lines: Line[] }>('deploymentLogs', {
            deploymentId,
            afterLine: after,
            limit: 1000,
          });
          return run.out.ok(logs, () => logs.lines.map(shown).join('\n'));
        }
        const lines: Line[] = [];
        const end = (await followStream(
          client,
          `/api/v1/deployments/${encodeURIComponent(deploymentId)}/logs/stream?after=${after}`,
          (e) => {
            const line = JSON.parse(e.data) as Line;
            if (run.out.json) lines.push(line);
            else process.stdout.write(`${escapeControls(shown(line))}\n`);
          },
        )) as { status: string };
        run.out.ok({ deploymentId, status: end.status, lines }, () => `… ${end.status}`);
        if (end.status !== 'succeeded') process.exitCode = 1;
      }),
    );
}

export function registerServiceObservationCommands(services: Command): void {
  services
    .command('status <service>')
    .description("the service's containers now: state, health, restarts, ports, image digest")
    .action(
      action(async (run, ref: string) => {
        const client = run.client();
        const id = await resolveService(client, ref);
        const status = await client.get<{
          containers: {
            name: string;
            state: string;
            health: string | null;
            restarts: number | null;
            publishedPorts: { url: string; publishedPort: number; targetPort: number }[];
            imageDigest: string | null;
          }[];
        }>(`/api/v1/services/${id}/status`);
        run.out.listing(status, status.containers, [
          ['container', (c) => c.name],
          ['state', (c) => c.state],
          ['health', (c) => c.health],
          ['restarts', (c) => c.restarts],
          [
            'ports',
            (c) =>
              c.publishedPorts.map((p) => `${p.url}:${p.publishedPort}->${p.targetPort}`).join(' '),
          ],
          ['image digest', (c) => c.imageDigest],
        ]);
      }),
    );
  services
    .command('stats <service>')
    .description("CPU, memory and network of the service's running containers")
    .action(
      action(async (run, ref: string) => {
        const client = run.client();
        const id = await resolveService(client, ref);
        const stats = await client.get<{
          containers: {
            name: string;
            cpuPercent: number | null;
            memoryUsage: string;
            networkIo: string;
          }[];
        }>(`/api/v1/services/${id}/stats`);
        run.out.listing(stats, stats.containers, [
          ['container', (c) => c.name],
          ['cpu %', (c) => c.cpuPercent],
          ['memory', (c) => c.memoryUsage],
          ['network in / out', (c) => c.networkIo],
        ]);
      }),
    );
  services
    .command('logs <service>')
    .description("the service's container logs; --follow keeps streaming for --seconds")
    .option('--follow', 'keep streaming new lines')
    .option('--tail <n>', 'lines from before (0-5000)', '100')
    .option('--seconds <n>', 'with --follow, stop after this long (1-3600)', '300')
    .action(
      action(
        async (run, ref: string, opts: { follow?: boolean; tail: string; seconds: string }) => {
          const client = run.client();
          const tail = bounded('tail', opts.tail, 0, 5000);
          const seconds = bounded('seconds', opts.seconds, 1, 3600);
          const id = await resolveService(client, ref);
          const lines: Line[] = [];
          await followStream(
            client,
            `/api/v1/services/${id}/logs/stream?tail=${tail}&seconds=${seconds}&follow=${!!opts.follow}`,
            (e) => {
              const line = JSON.parse(e.data) as Line;
              if (run.out.json) lines.push(line);
              else process.stdout.write(`${escapeControls(line.text)}\n`);
            },
            false,
          );
          if (run.out.json) run.out.ok({ lines }, () => '');
        },
      ),
    );
}

/** `servers check --versions`: the REST check with Docker, Compose and free disk. */
export function describeDiagnostics(d: {
  docker: string | null;
  compose: string | null;
  diskFreeKib: number | null;
}): string {
  return keyValues([
    ['docker', d.docker],
    ['compose', d.compose],
    ['disk free', d.diskFreeKib === null ? null : `${Math.round(d.diskFreeKib / 1024)} MiB`],
  ]);
}
