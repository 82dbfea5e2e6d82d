import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { action, type Run } from '../context.js';
import { table } from '../output.js';
import { resolveServer, resolveService } from './resolve.js';

interface Plan {
  isReady: boolean;
  preflightChecks: { check: string; status: string; detail: string }[];
  steps: string[];
  approvalRequired: boolean;
  executeCommand: string;
}

/** Prints the plan; one that is not ready exits 3. */
function show(run: Run, plan: Plan): void {
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
      table(
        ['check', 'status', 'detail'],
        plan.preflightChecks.map((c) => [c.check, c.status, c.detail]),
      ),
      `Steps:\n${plan.steps.map((s, i) => `  ${i + 1}. ${s}`).join('\n')}`,
      `Approval required: ${plan.approvalRequired ? 'yes' : 'no'}`,
      `Run: ${plan.executeCommand}`,
    ].join('\n'),
  );
}

export function registerPlanCommands(program: Command): void {
  const plan = program
    .command('plan')
    .description('preview a change: preflight checks, steps, the command that does it');
  plan.command('deploy <service> <imageTag>').action(
    action(async (run, service: string, imageTag: string) => {
      const client = run.client();
      show(
        run,
        await client.query<Plan>('deploymentPlan', {
          serviceId: await resolveService(client, service),
          imageTag,
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
        show(
          run,
          await client.query<Plan>('composeDeploymentPlan', {
            serverId: await resolveServer(client, server),
            compose: readFileSync(opts.composeFile, 'utf8'),
          }),
        );
      }),
    );
  plan.command('rollback <service> [targetDeploymentId]').action(
    action(async (run, service: string, targetDeploymentId: string | undefined) => {
      const client = run.client();
      show(
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
      show(run, await run.client().query<Plan>('backupRestorePlan', { backupId }));
    }),
  );
  plan.command('diff <fromDeploymentId> <toDeploymentId>').action(
    action(async (run, fromDeploymentId: string, toDeploymentId: string) => {
      show(run, await run.client().query<Plan>('configDiff', { fromDeploymentId, toDeploymentId }));
    }),
  );
}
