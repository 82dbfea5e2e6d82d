import type { Command } from 'commander';
import type { ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action, type Run } from '../context.js';
import { keyValues } from '../output.js';
import { confirmedCall } from './confirmed-call.js';
import { deployCompose, type ComposeDeployOptions } from './compose-deploy.js';
import { resolveDeployTarget, resolveService } from './resolve.js';

interface Deployment {
  id: string;
  serviceName: string;
  environment: string;
  imageRef: string;
  status: string;
  trigger: string;
  createdAt: string;
  finishedAt: string | null;
  failureReason?: string | null;
  failedStep?: string | null;
}

const FINISHED = ['succeeded', 'failed', 'cancelled'];

async function follow(run: Run, client: ApiClient, deploymentId: string): Promise<Deployment> {
  let after = 0;
  let status = '';
  for (;;) {
    const logs = await client.query<{
      lines: { line: number; step: string; text: string }[];
      nextAfterLine: number;
    }>('deploymentLogs', { deploymentId, afterLine: after, limit: 1000 });
    for (const l of logs.lines) run.out.progress(`[${l.step}] ${l.text}`);
    after = logs.nextAfterLine;
    const d = await client.query<Deployment>('deploymentDetails', { deploymentId });
    if (d.status !== status) run.out.progress(`… ${d.status}`);
    status = d.status;
    if (FINISHED.includes(d.status) && logs.lines.length === 0) return d;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** What a command that queues a deployment answers. */
export interface Queued {
  status: string;
  deploymentId?: string;
  approvalId?: string;
}

/** What every command that queues a deployment takes: see answerOrFollow for --wait. */
export interface QueueOptions {
  wait?: boolean;
  /** Used if the service requires approval. */
  reason?: string;
  yes?: boolean;
}

/**
 * What a deploy or rollback answered; with --wait, the deployment followed to its end (an
 * error unless it succeeded). A pending approval is answered at once either way.
 */
export async function answerOrFollow(run: Run, client: ApiClient, result: Queued, wait?: boolean) {
  if (!wait || !result.deploymentId) {
    return run.out.ok(result, () =>
      result.status === 'pending_approval'
        ? `Approval required: request ${result.approvalId} waits for someone with approvals:decide`
        : `Deployment ${result.deploymentId} ${result.status}`,
    );
  }
  const final = await follow(run, client, result.deploymentId);
  if (final.status !== 'succeeded') {
    throw new CliError(
      final.status === 'cancelled' ? 'DEPLOYMENT_CANCELLED' : 'DEPLOYMENT_FAILED',
      `Deployment ${final.id} ${final.status}${final.failureReason ? `: ${final.failureReason}` : ''}`,
      { deployment: final },
    );
  }
  run.out.ok(
    final,
    () =>
      `Deployment ${final.id} succeeded: ${final.imageRef} runs on ${final.serviceName}@${final.environment}`,
  );
}

export function registerDeploymentCommands(program: Command): void {
  const deployments = program
    .command('deployments')
    .description('list, show and follow deployments');
  deployments
    .command('list')
    .option('--service <service>', 'only this service (id, name or name@env)')
    .option('--status <status>', 'queued, running, succeeded, failed or cancelled')
    .option('--limit <n>', '1-100', '20')
    .action(
      action(async (run, opts: { service?: string; status?: string; limit: string }) => {
        const client = run.client();
        const serviceId = opts.service ? await resolveService(client, opts.service) : undefined;
        const page = await client.query<{ items: Deployment[] }>('recentDeployments', {
          limit: Number(opts.limit),
          status: opts.status,
          serviceId,
        });
        run.out.listing(page, page.items, [
          ['id', (d) => d.id],
          ['service', (d) => `${d.serviceName}@${d.environment}`],
          ['image', (d) => d.imageRef],
          ['status', (d) => d.status],
          ['trigger', (d) => d.trigger],
          ['created', (d) => d.createdAt],
          [
            'failure',
            (d) =>
              d.failureReason
                ? `${d.failedStep ? `${d.failedStep}: ` : ''}${d.failureReason}`
                : null,
          ],
        ]);
      }),
    );
  deployments.command('show <deploymentId>').action(
    action(async (run, deploymentId: string) => {
      const d = await run
        .client()
        .query<Deployment & Record<string, unknown>>('deploymentDetails', { deploymentId });
      run.out.ok(d, () =>
        keyValues([
          ['id', d.id],
          ['service', `${d.serviceName}@${d.environment}`],
          ['image', d.imageRef],
          ['status', d.status],
          ['trigger', d.trigger],
          ['created', d.createdAt],
          ['finished', d.finishedAt],
          ['failure', d.failureReason ? `${d.failedStep}: ${d.failureReason}` : null],
        ]),
      );
    }),
  );
  deployments
    .command('logs <deploymentId>')
    .option('--after <line>', 'only lines after this number', '0')
    .action(
      action(async (run, deploymentId: string, opts: { after: string }) => {
        const logs = await run
          .client()
          .query<{ lines: { line: number; step: string; stream: string; text: string }[] }>(
            'deploymentLogs',
            { deploymentId, afterLine: Number(opts.after), limit: 1000 },
          );
        run.out.ok(logs, () =>
          logs.lines.map((l) => `${String(l.line).padStart(5)} [${l.step}] ${l.text}`).join('\n'),
        );
      }),
    );

  program
    .command('deploy <service> [imageTag]')
    .description(
      "deploy an image to a service: a tag of the service's repository (1.4.3) or a full reference (registry/repo:tag or @sha256:); with --compose, from compose files (the tag then defaults to the compose's image)",
    )
    .option('--compose <file>', 'deploy this compose file (POST /api/v1/deploy/compose)')
    .option(
      '--file <path>',
      'with --compose: a file to put beside it (relative path; repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--build-context <dir>',
      'with --compose: upload this directory (gzip tar, with progress) and build it on the server',
    )
    .option(
      '--wait',
      'follow the deployment and its logs until it ends; non-zero exit unless it succeeds',
    )
    .option('--idempotency-key <key>', 'repeat-safe key: the same key returns the same deployment')
    .option('--reason <text>', 'used if the service requires approval (12-280 characters)')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(
        async (
          run,
          service: string,
          imageTag: string | undefined,
          opts: Partial<ComposeDeployOptions> & QueueOptions,
        ) => {
          const client = run.client();
          if (opts.compose) {
            const target = imageTag
              ? await resolveDeployTarget(client, service, imageTag)
              : { serviceId: await resolveService(client, service), imageRef: undefined };
            await confirm(opts.yes, `Deploy ${opts.compose} to ${service}`);
            const result = await deployCompose(run, client, target.serviceId, target.imageRef, {
              ...opts,
              compose: opts.compose,
            });
            return answerOrFollow(run, client, result, opts.wait);
          }
          if (opts.file?.length || opts.buildContext)
            throw new CliError('BAD_REQUEST', '--file and --build-context go with --compose');
          if (!imageTag) throw new CliError('BAD_REQUEST', 'give an image tag, or --compose FILE');
          const { serviceId, imageRef } = await resolveDeployTarget(client, service, imageTag);
          await confirm(opts.yes, `Deploy ${imageRef} to ${service}`);
          const result = await client.mutation<Queued>(
            'triggerDeploy',
            { serviceId, imageTag: imageRef, reason: opts.reason },
            { idempotencyKey: opts.idempotencyKey },
          );
          await answerOrFollow(run, client, result, opts.wait);
        },
      ),
    );

  program
    .command('rollback <service> <targetDeploymentId>')
    .description("queue a deployment that replays a succeeded deployment's frozen snapshot")
    .option('--wait', 'follow the rollback and its logs until it ends; non-zero unless it succeeds')
    .option('--reason <text>', 'used if the service requires approval')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, service: string, targetDeploymentId: string, opts: QueueOptions) => {
        const client = run.client();
        const serviceId = await resolveService(client, service);
        await confirm(opts.yes, `Roll ${service} back to ${targetDeploymentId}`);
        const result = await client.mutation<Queued>('executeRollback', {
          serviceId,
          targetDeploymentId,
          reason: opts.reason,
        });
        await answerOrFollow(run, client, result, opts.wait);
      }),
    );

  confirmedCall(program, {
    command: 'cancel <deploymentId>',
    description: 'cancel a queued deployment, or stop a running one between steps',
    ask: (deploymentId) => `Cancel deployment ${deploymentId}`,
    call: (client, deploymentId) =>
      client.mutation<{ status: string }>('cancelDeployment', { deploymentId }),
    said: (result, deploymentId) => `Deployment ${deploymentId} ${result.status}`,
  });
}
