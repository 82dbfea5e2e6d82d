import type { Command } from 'commander';
import type { QueuedApproval } from '../../deployments/queries/approval-queue.js';
import type { FrozenView } from '../../deployments/queries/approval-view.js';
import type { Page } from '../../readstore/read-store.port.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { columnTable } from '../output.js';
import { resolveService } from './resolve.js';

/** What approving runs: an image, or a restore of a backup (with its command). */
function runs(frozen: FrozenView): string {
  if (frozen.restore) {
    const what = frozen.restore.volume
      ? `volume ${frozen.restore.volume}`
      : (frozen.restore.command ?? '');
    return `restore backup ${frozen.restore.backupId.slice(0, 8)}: ${what}`;
  }
  const digest = frozen.snapshotDigest ? ` (${frozen.snapshotDigest.slice(0, 19)})` : '';
  return `${frozen.imageRef ?? ''}${digest}`;
}

/** Each waiting request's compose changes, under its id. */
function composeDiffs(items: readonly QueuedApproval[]): string {
  return items
    .filter((a) => a.frozen.changes?.compose)
    .map((a) => `\n\n${a.id} compose:\n${a.frozen.changes!.compose}`)
    .join('');
}

/** Against what runs now: what differs, and whether the request went stale. */
function changes(frozen: FrozenView): string {
  const c = frozen.changes;
  const parts = frozen.stale ? ['STALE: the service changed, file it again'] : [];
  if (c) {
    if (c.image) parts.push('image');
    if (c.server) parts.push('server');
    if (c.compose) parts.push('compose');
    const sign = { added: '+', removed: '-', changed: '~', unchanged: '' } as const;
    if (c.env.length) parts.push(`env ${c.env.map((v) => sign[v.change] + v.name).join(' ')}`);
  }
  return parts.join('; ') || (c ? 'none' : '');
}

export function registerApprovalCommands(program: Command): void {
  const approvals = program.command('approvals').description('requests that need a second person');
  approvals
    .command('list')
    .description('requests and what approving each runs (image, server, changes), oldest first')
    .option('--status <status>', 'pending, approved, rejected or expired')
    .option('--limit <n>', '1-100 (default 50)', (v) => Number(v))
    .option('--cursor <cursor>', 'the next page, as printed by the previous one')
    .option('--diff', 'also print each waiting request’s compose changes against what runs now')
    .action(
      action(
        async (run, opts: { status?: string; limit?: number; cursor?: string; diff?: boolean }) => {
          const page = await run.client().query<Page<QueuedApproval>>('approvalQueue', {
            status: opts.status,
            limit: opts.limit,
            cursor: opts.cursor,
          });
          run.out.ok(page, () => {
            const more = page.nextCursor ? `\nmore: --cursor ${page.nextCursor}` : '';
            return (
              columnTable(page.items, [
                ['id', (a) => a.id],
                ['action', (a) => a.action],
                [
                  'service',
                  (a) => (a.serviceName ? `${a.serviceName}@${a.environment}` : a.serviceId),
                ],
                ['runs', (a) => runs(a.frozen)],
                ['server', (a) => a.frozen.server?.name ?? a.frozen.server?.id ?? ''],
                ['changes', (a) => changes(a.frozen)],
                ['status', (a) => a.status],
                ['requested', (a) => a.requestedAt],
                ['reason', (a) => a.reason],
              ]) +
              (opts.diff ? composeDiffs(page.items) : '') +
              more
            );
          });
        },
      ),
    );
  approvals
    .command('request')
    .requiredOption('--action <action>', 'deploy, rollback or restore')
    .requiredOption('--service <service>', 'id, name or name@env')
    .requiredOption('--reason <text>', '12-280 characters')
    .option('--image <imageTag>', 'for deploy')
    .option('--target <deploymentId>', 'for rollback')
    .option('--backup <backupId>', 'for restore')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(
        async (
          run,
          opts: {
            action: string;
            service: string;
            reason: string;
            image?: string;
            target?: string;
            backup?: string;
            yes?: boolean;
          },
        ) => {
          const client = run.client();
          const serviceId = await resolveService(client, opts.service);
          await confirm(opts.yes, `Request approval to ${opts.action} ${opts.service}`);
          const result = await client.mutation<{ approvalId: string }>('requestApproval', {
            action: opts.action,
            serviceId,
            reason: opts.reason,
            imageTag: opts.image,
            targetDeploymentId: opts.target,
            backupId: opts.backup,
          });
          run.out.ok(result, () => `Approval requested: ${result.approvalId}`);
        },
      ),
    );
  for (const [verb, procedure] of [
    ['approve', 'approveRequest'],
    ['reject', 'rejectRequest'],
  ] as const) {
    approvals
      .command(`${verb} <approvalId>`)
      .option('--note <text>', 'a note for the record')
      .option('--yes', 'do not ask for confirmation')
      .action(
        action(async (run, approvalId: string, opts: { note?: string; yes?: boolean }) => {
          await confirm(
            opts.yes,
            `${verb === 'approve' ? 'Approve' : 'Reject'} request ${approvalId}`,
          );
          const result = await run
            .client()
            .mutation<{ status: string; deploymentId: string | null }>(procedure, {
              approvalId,
              note: opts.note,
            });
          run.out.ok(
            result,
            () =>
              `Request ${approvalId} ${result.status}${result.deploymentId ? `; deployment ${result.deploymentId} queued` : ''}`,
          );
        }),
      );
  }
}
