import type { Command } from 'commander';
import type { QueuedApproval } from '../../deployments/queries/approval-queue.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { resolveService } from './resolve.js';

export function registerApprovalCommands(program: Command): void {
  const approvals = program.command('approvals').description('requests that need a second person');
  approvals
    .command('list')
    .option('--status <status>', 'pending, approved, rejected or expired')
    .action(
      action(async (run, opts: { status?: string }) => {
        const page = await run
          .client()
          .query<{ items: QueuedApproval[] }>('approvalQueue', { status: opts.status, limit: 100 });
        run.out.listing(page, page.items, [
          ['id', (a) => a.id],
          ['action', (a) => a.action],
          ['service', (a) => (a.serviceName ? `${a.serviceName}@${a.environment}` : a.serviceId)],
          ['status', (a) => a.status],
          ['reason', (a) => a.reason],
          ['requested', (a) => a.requestedAt],
        ]);
      }),
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
