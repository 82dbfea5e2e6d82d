import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { verifyExportFile } from '../../audit/export/export-verifier.js';
import {
  knownCheckpointText,
  parseKnownCheckpoint,
  type KnownCheckpoint,
} from '../../audit/mark/audit-mark.js';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { columnTable } from '../output.js';
import { confirmedCall } from './confirmed-call.js';

interface TrailReport {
  ok: boolean;
  eventsVerified: number;
  checkpointsVerified: number;
  firstBadPosition: number | null;
  problem: string | null;
  message: string;
  /** Absent from servers older than the mark. */
  lastCheckpoint?: KnownCheckpoint | null;
}

interface Entry {
  position: number;
  time: string;
  action: string;
  resource: string;
  outcome: string;
  code: string | null;
  count: number;
  actor: { label: string };
  authMethod: string;
  /** Absent from servers older than the MCP channel. */
  channel?: string;
  token: { id: string; name: string | null } | null;
  clientAddress: string | null;
  requestId: string | null;
}

const expectArg = (value: string): KnownCheckpoint => {
  const known = parseKnownCheckpoint(value);
  if (!known) {
    throw new CliError(
      'BAD_REQUEST',
      `Not <sequence>:<digest> (64 lowercase hex digits): ${value}`,
    );
  }
  return known;
};

/** The line that tells the auditor what to keep for `--expect`. */
const keepLine = (last: KnownCheckpoint | null | undefined) =>
  last
    ? `\nlast checkpoint ${knownCheckpointText(last)} (keep it: --expect checks a later trail against it)`
    : '';

const positionArg = (value: string) => {
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new CliError('BAD_REQUEST', `Not a position: ${value}`);
  return Number(value);
};

function broken(report: TrailReport): CliError {
  return new CliError(
    'AUDIT_TRAIL_BROKEN',
    `${report.problem} at position ${report.firstBadPosition}: ${report.message}`,
    { report },
  );
}

export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description('the tamper-evident audit trail');
  audit
    .command('verify')
    .description(
      'recompute the hash chain and check the signed checkpoints; exit 1 if anything changed',
    )
    .option(
      '--from <position>',
      'start at this position (from the checkpoint before it)',
      positionArg,
    )
    .option('--to <position>', 'stop at this position', positionArg)
    .option(
      '--expect <sequence:digest>',
      'a checkpoint kept outside Slipway that the trail must still hold',
      expectArg,
    )
    .action(
      action(async (run, opts: { from?: number; to?: number; expect?: KnownCheckpoint }) => {
        const report = await run.client().query<TrailReport>('verifyAuditTrail', {
          fromPosition: opts.from,
          toPosition: opts.to,
          expectCheckpoint: opts.expect ? knownCheckpointText(opts.expect) : undefined,
        });
        if (!report.ok) throw broken(report);
        run.out.ok(report, () => report.message + keepLine(report.lastCheckpoint));
      }),
    );
  audit
    .command('list')
    .description('who did what, when, with which credential: newest first')
    .option('--actor <principalId>', 'only this user or agent')
    .option('--action <eventType>', 'only this event type (e.g. TokenRevoked, AccessDenied)')
    .option('--stream <stream>', 'only this stream')
    .option('--resource <resource>', 'only this resource (stream, procedure:<name>, route:<...>)')
    .option('--outcome <outcome>', 'succeeded, denied or rejected')
    .option('--since <time>', 'from this ISO 8601 time')
    .option('--until <time>', 'before this ISO 8601 time')
    .option('--limit <n>', '1-500 (default 50)', (v) => Number(v))
    .option('--cursor <cursor>', 'the next page, as printed by the previous one')
    .action(
      action(async (run, opts: Record<string, string | number | undefined>) => {
        const page = await run
          .client()
          .query<{ entries: Entry[]; nextCursor: string | null }>('auditTrail', {
            actor: opts.actor,
            action: opts.action,
            stream: opts.stream,
            resource: opts.resource,
            outcome: opts.outcome,
            from: opts.since,
            to: opts.until,
            limit: opts.limit,
            cursor: opts.cursor,
          });
        run.out.ok(page, () => {
          const more = page.nextCursor ? `\nmore: --cursor ${page.nextCursor}` : '';
          return (
            columnTable(page.entries, [
              ['pos', (e) => e.position],
              ['time', (e) => e.time],
              ['actor', (e) => e.actor.label],
              [
                'credential',
                (e) =>
                  (e.token ? `token ${e.token.name ?? e.token.id}` : e.authMethod) +
                  (e.channel === 'mcp' ? ' via mcp' : ''),
              ],
              ['action', (e) => e.action],
              ['resource', (e) => e.resource],
              [
                'outcome',
                (e) =>
                  e.code ? `${e.outcome} ${e.code}${e.count > 1 ? ` x${e.count}` : ''}` : e.outcome,
              ],
              ['from', (e) => e.clientAddress],
            ]) + more
          );
        });
      }),
    );
  audit
    .command('export <file>')
    .description('download the trail with its checkpoints and signature, for offline verification')
    .option('--format <format>', 'ndjson (default) or csv', 'ndjson')
    .option('--from <positionOrTime>', 'first position, or ISO 8601 time')
    .option('--to <positionOrTime>', 'last position, or ISO 8601 time')
    .action(
      action(async (run, file: string, opts: { format: string; from?: string; to?: string }) => {
        const params = new URLSearchParams({ format: opts.format });
        if (opts.from) params.set('from', opts.from);
        if (opts.to) params.set('to', opts.to);
        const bytes = await run.client().download(`/api/v1/audit/export?${params}`, file);
        run.out.ok({ file, bytes }, () => `Wrote ${bytes} bytes to ${file}`);
      }),
    );
  audit
    .command('verify-export <file>')
    .description(
      'offline: check an export against the audit public key (no server needed); exit 1 if altered',
    )
    .option(
      '--public-key <pemFile>',
      'the published audit public key (default: the one inside the export)',
    )
    .option(
      '--expect <sequence:digest>',
      'a checkpoint kept outside Slipway (from an earlier verification) that the export must hold',
      expectArg,
    )
    .action(
      action(async (run, file: string, opts: { publicKey?: string; expect?: KnownCheckpoint }) => {
        const key = opts.publicKey ? readFileSync(opts.publicKey, 'utf8') : undefined;
        const report = await verifyExportFile(file, key, opts.expect);
        if (!report.ok) {
          throw new CliError(
            'AUDIT_EXPORT_BROKEN',
            report.firstBadPosition
              ? `${report.problem} at position ${report.firstBadPosition}: ${report.message}`
              : `${report.problem}: ${report.message}`,
            { report },
          );
        }
        run.out.ok(report, () =>
          report.keyFromAuditor
            ? report.message + keepLine(report.lastCheckpoint)
            : `${report.message}${keepLine(report.lastCheckpoint)}\n(checked with the key inside the export: pass --public-key to check against the published key)`,
        );
      }),
    );
  audit
    .command('seal')
    .description('seal a signed checkpoint of the chain now')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, opts: { yes?: boolean }) => {
        await confirm(opts.yes, 'Seal an audit checkpoint');
        const sealed = await run
          .client()
          .mutation<{ sequence: number; toPosition: number; digest?: string } | null>(
            'sealAuditCheckpoint',
            {},
          );
        run.out.ok(sealed, () =>
          sealed
            ? `Checkpoint ${sealed.sequence} sealed up to position ${sealed.toPosition}` +
              (sealed.digest ? keepLine({ sequence: sealed.sequence, digest: sealed.digest }) : '')
            : 'Nothing new to seal',
        );
      }),
    );
  confirmedCall(audit, {
    command: 'erase-subject <userId>',
    description: "erase a deactivated user's personal data (owner only; cannot be undone)",
    ask: (userId) => `Erase the personal data of user ${userId} for good`,
    call: (client, userId) =>
      client.mutation<{ userId: string; erasedAt: string }>('eraseSubjectData', { userId }),
    said: (erased) => `Personal data of ${erased.userId} erased`,
  });
}
