import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { stdinFirstLine } from '../user-input.js';
import { confirmedCall } from './confirmed-call.js';

interface DrainView {
  drainId: string;
  displayName: string;
  kind: string;
  endpoint: string;
  headerNames: string[];
  sources: string[];
  enabled: boolean;
  delivery: {
    status: string;
    behind: number;
    delivered: number;
    lastDeliveredAt: string | null;
    lastError: string | null;
    nextAttemptAt: string | null;
  };
}

interface SetOptions {
  name?: string;
  kind: string;
  endpoint: string;
  caFile?: string;
  sources: string;
  headerFromStdin?: string;
  /** false with --no-headers (commander's negatable option). */
  headers?: boolean;
  startAt?: string;
  disabled?: boolean;
}

function headersOf(opts: SetOptions, value: string | null) {
  if (opts.headerFromStdin && opts.headers === false) {
    throw new CliError('BAD_USAGE', 'Give --header-from-stdin or --no-headers, not both');
  }
  if (opts.headers === false) return { headers: [] };
  if (opts.headerFromStdin && value) return { headers: [{ name: opts.headerFromStdin, value }] };
  return {};
}

/** Drains: the audit trail and deployment output streamed to syslog or an OTLP collector. */
export function registerDrainCommands(program: Command): void {
  const drains = program
    .command('drains')
    .description('stream the audit trail and deployment output to syslog (TLS) or OTLP');

  drains
    .command('list')
    .description('the drains and how each is delivering')
    .action(
      action(async (run) => {
        const list = await run.client().query<{ drains: DrainView[] }>('drains');
        run.out.listing(list, list.drains, [
          ['id', (d) => d.drainId],
          ['kind', (d) => d.kind],
          ['endpoint', (d) => d.endpoint],
          ['sources', (d) => d.sources.join(',')],
          ['status', (d) => d.delivery.status],
          ['behind', (d) => String(d.delivery.behind)],
          ['delivered', (d) => String(d.delivery.delivered)],
          ['last error', (d) => d.delivery.lastError ?? ''],
        ]);
      }),
    );

  drains
    .command('set <drainId>')
    .description('add or change a drain, whole (what is left out is not kept, but headers)')
    .requiredOption('--kind <kind>', 'syslog (RFC 5424 over TLS) or otlp (logs over HTTP)')
    .requiredOption(
      '--endpoint <url>',
      'tls://host:6514 for syslog; https://host:4318/v1/logs for otlp',
    )
    .option('--name <name>', 'a name people read (default: the id)')
    .option('--ca-file <path>', 'PEM certificates to trust for the endpoint (a private CA)')
    .option('--sources <list>', 'audit, deployment-logs, or both, comma-separated', 'audit')
    .option(
      '--header-from-stdin <name>',
      'otlp: send this header, its value read from standard input (first line)',
    )
    .option('--no-headers', 'otlp: send no headers (remove those configured)')
    .option('--start-at <when>', 'a new drain: now (default) or beginning (the whole history)')
    .option('--disabled', 'configure it without shipping yet')
    .action(
      action(async (run, drainId: string, opts: SetOptions) => {
        const value = opts.headerFromStdin ? await stdinFirstLine() : null;
        const done = await run
          .client()
          .mutation<{ drainId: string; changed: boolean }>('configureDrain', {
            drainId,
            displayName: opts.name ?? drainId,
            kind: opts.kind,
            endpoint: opts.endpoint,
            ...(opts.caFile ? { caCertificate: readFileSync(opts.caFile, 'utf8') } : {}),
            ...headersOf(opts, value),
            sources: opts.sources.split(',').map((s) => s.trim()),
            ...(opts.startAt ? { startAt: opts.startAt } : {}),
            enabled: opts.disabled !== true,
          });
        run.out.ok(done, () => `Drain ${done.drainId} ${done.changed ? 'saved' : 'unchanged'}`);
      }),
    );

  confirmedCall(drains, {
    command: 'remove <drainId>',
    description: 'stop a drain; configured again later, it starts afresh',
    ask: (drainId) => `Remove drain ${drainId}`,
    call: (client, drainId) => client.mutation('removeDrain', { drainId }),
    said: (_, drainId) => `Drain ${drainId} removed`,
  });
}
