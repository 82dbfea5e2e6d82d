import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { action, type Run } from '../context.js';
import { columnTable } from '../output.js';
import { resolveDeployTarget, resolveServer, resolveService } from './resolve.js';

/** One argument quoted for a POSIX shell, so that a printed command runs as shown. */
export const shellQuoted = (value: string) =>
  /^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;

export interface Plan {
  isReady: boolean;
  preflightChecks: { check: string; status: string; detail: string }[];
  steps: string[];
  approvalRequired: boolean;
  executeCommand: string;
}

/** Prints the plan, after `before` (lines that say what the plan is about); not ready exits 3. */
export function showPlan(run: Run, plan: Plan, before: string[] = []): void {
  if (!plan.isReady)
    throw new CliError(
      'PLAN_NOT_READY',
      `The plan is not ready: ${plan.preflightChecks
        .filter((c) => c.status === 'fail')
        .map((c) => `${c.check}: ${c.detail}`)
        .join('; ')}`,
      { plan },
    );
  run.out.ok(plan, () =>
    [
      ...before,
      columnTable(plan.preflightChecks, [
        ['check', (c) => c.check],
        ['status', (c) => c.status],
        ['detail', (c) => c.detail],
      ]),
      `Steps:\n${plan.steps.map((s, i) => `  ${i + 1}. ${s}`).join('\n')}`,
      `Approval required: ${plan.approvalRequired ? 'yes' : 'no'}`,
      `Run: ${plan.executeCommand}`,
    ].join('\n'),
  );
}

interface ConfigDiff {
  image: { from: string; to: string; changed: boolean };
  server: { from: string; to: string; changed: boolean };
  env: { name: string; change: 'added' | 'removed' | 'changed' | 'unchanged'; secret: boolean }[];
  compose: { changed: boolean; unified: string | null };
}

const ENV_MARK = { added: '+', removed: '-', changed: '~', unchanged: ' ' } as const;

/** What differs between two snapshots, for people: values of secrets are never shown. */
function diffLines(diff: ConfigDiff): string[] {
  const changedEnv = diff.env.filter((e) => e.change !== 'unchanged');
  return [
    `Image:   ${diff.image.changed ? `${diff.image.from} -> ${diff.image.to}` : `${diff.image.to} (unchanged)`}`,
    `Server:  ${diff.server.changed ? `${diff.server.from} -> ${diff.server.to}` : 'unchanged'}`,
    changedEnv.length
      ? `Environment:\n${changedEnv.map((e) => `  ${ENV_MARK[e.change]} ${e.name}${e.secret ? ' (secret, value hidden)' : ''} ${e.change}`).join('\n')}`
      : 'Environment: unchanged',
    diff.compose.unified ? `Compose:\n${diff.compose.unified.trimEnd()}` : 'Compose: unchanged',
  ];
}

export function registerPlanCommands(program: Command): void {
  const plan = program
    .command('plan')
    .description('preview a change: preflight checks, steps, the command that does it');
  plan.command('deploy <service> <imageTag>').action(
    action(async (run, service: string, imageTag: string) => {
      const client = run.client();
      const target = await resolveDeployTarget(client, service, imageTag);
      showPlan(
        run,
        await client.query<Plan>('deploymentPlan', {
          serviceId: target.serviceId,
          imageTag: target.imageRef,
        }),
      );
    }),
  );
  plan
    .command('compose <server>')
    .requiredOption('--compose-file <file>', 'the compose definition')
    .action(
      action(async (run, server: string, opts: { composeFile: string }) => {
        const client = run.client();
        const plan = await client.query<Plan>('composeDeploymentPlan', {
          serverId: await resolveServer(client, server),
          compose: readFileSync(opts.composeFile, 'utf8'),
        });
        // The server cannot know the file's name: the Run line names the file given here.
        plan.executeCommand = plan.executeCommand.replace(
          '--compose-file compose.yaml',
          `--compose-file ${shellQuoted(opts.composeFile)}`,
        );
        showPlan(run, plan);
      }),
    );
  plan.command('rollback <service> [targetDeploymentId]').action(
    action(async (run, service: string, targetDeploymentId: string | undefined) => {
      const client = run.client();
      showPlan(
        run,
        await client.query<Plan>('rollbackPlan', {
          serviceId: await resolveService(client, service),
          targetDeploymentId,
        }),
      );
    }),
  );
  plan.command('restore <backupId>').action(
    action(async (run, backupId: string) => {
      showPlan(run, await run.client().query<Plan>('backupRestorePlan', { backupId }));
    }),
  );
  plan.command('diff <fromDeploymentId> <toDeploymentId>').action(
    action(async (run, fromDeploymentId: string, toDeploymentId: string) => {
      const diff = await run
        .client()
        .query<Plan & { diff: ConfigDiff }>('configDiff', { fromDeploymentId, toDeploymentId });
      showPlan(run, diff, diffLines(diff.diff));
    }),
  );
}
