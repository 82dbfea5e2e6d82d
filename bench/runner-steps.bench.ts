import { fileURLToPath } from 'node:url';
import type { DeploymentDoc } from '../projections/deployments.projection.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { READ_STORE, type ReadStore } from '../src/readstore/read-store.port.js';
import {
  appendHistory,
  projectionsCaughtUp,
  readyService,
  runDeployment,
  startInProcess,
  templateOf,
  type DeploymentRun,
} from './deployment-history.js';
import { median } from './bench-api.js';

export interface StepCosts {
  /** Median of every state-machine call (start, stepStarted, stepFinished, succeed). */
  stepMedianMs: number;
  /** Median by kind of call, in the order the runner makes them. */
  byKindMs: Record<string, number>;
  /** Median write of one step's output lines to the log store. */
  logMedianMs: number;
  /** Median of a whole run: all its step calls and log writes. */
  deploymentMedianMs: number;
}

export interface RunnerStepsResult {
  deployments: number;
  measured: number;
  stepCallsPerDeployment: number;
  /** Finished deployments appended through the EventStore port between the two phases. */
  appendedDeployments: number;
  appendedEvents: number;
  appendSeconds: number;
  /** From restarting the paused projections until they had applied the appended history. */
  projectSeconds: number;
  first: StepCosts;
  after: StepCosts;
  /** The first command after the history was appended (a trigger): it reads that history. */
  firstCommandAfterHistoryMs: number;
  /** Median of the triggers after it, on the stream it left cached. */
  laterCommandsAfterHistoryMs: number;
  /** The step calls of that first deployment after the history, in order. */
  firstStepCallsAfterHistoryMs: number[];
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function costs(runs: DeploymentRun[]): StepCosts {
  const byKind = new Map<string, number[]>();
  for (const run of runs) {
    run.stepCallKinds.forEach((kind, i) => {
      byKind.set(kind, [...(byKind.get(kind) ?? []), run.stepCallsMs[i]]);
    });
  }
  return {
    stepMedianMs: median(runs.flatMap((r) => r.stepCallsMs)),
    byKindMs: Object.fromEntries([...byKind].map(([kind, ms]) => [kind, median(ms)])),
    logMedianMs: median(runs.flatMap((r) => r.logWritesMs)),
    deploymentMedianMs: median(runs.map((r) => sum(r.stepCallsMs) + sum(r.logWritesMs))),
  };
}

/**
 * The runner's step calls on DeploymentStateMachine for the first `measured` deployments of a
 * service, then for `measured` deployments after the service has `deployments` past ones
 * (successes with every step, failures at `pull`, cancellations), all in this process with the
 * runner off. The history between the two phases is appended directly through the EventStore
 * port (copies of real deployments under new ids), then projected before measuring again.
 */
export async function benchRunnerSteps(
  deployments: number,
  measured = 100,
): Promise<RunnerStepsResult> {
  const total = Math.max(deployments, measured + 2);
  const slipway = await startInProcess();
  try {
    // Warm-up on another service, so that the first phase does not pay for a cold JIT.
    const warmUp = await readyService(slipway, 'warm-up');
    for (let i = 1; i <= 20; i++) await runDeployment(slipway, warmUp, i);
    const serviceId = await readyService(slipway, 'api');
    const first: DeploymentRun[] = [];
    for (let i = 1; i <= measured; i++) first.push(await runDeployment(slipway, serviceId, i));
    const failed = await runDeployment(slipway, serviceId, measured + 1, 'failed');
    const cancelled = await runDeployment(slipway, serviceId, measured + 2, 'cancelled');
    const templates = {
      succeeded: await templateOf(slipway.events, first[0]),
      failed: await templateOf(slipway.events, failed),
      cancelled: await templateOf(slipway.events, cancelled),
    };
    const appendedDeployments = total - measured - 2;
    // Projections pause while the history is appended, so each figure is its own work.
    const projections = slipway.app.get(ProjectionRunner);
    await projections.stop();
    let started = performance.now();
    const appendedEvents = await appendHistory(
      slipway.events,
      templates,
      appendedDeployments,
      measured + 3,
    );
    const appendSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await projections.start();
    await projectionsCaughtUp(slipway);
    const projectSeconds = (performance.now() - started) / 1000;

    const after: DeploymentRun[] = [];
    for (let i = 1; i <= measured; i++) {
      after.push(await runDeployment(slipway, serviceId, total + i));
    }
    // The appended history must fold like a real one: the next deployment gets the next number.
    const doc = await slipway.app
      .get<ReadStore>(READ_STORE)
      .collection<DeploymentDoc>('deployments')
      .get(after[0].deploymentId);
    if (doc?.sequence !== total + 1) {
      throw new Error(`deployment ${total + 1} was numbered ${doc?.sequence}: history not folded`);
    }
    return {
      deployments: total,
      measured,
      stepCallsPerDeployment: first[0].stepCallsMs.length,
      appendedDeployments,
      appendedEvents,
      appendSeconds,
      projectSeconds,
      first: costs(first),
      after: costs(after),
      firstCommandAfterHistoryMs: after[0].triggerMs,
      laterCommandsAfterHistoryMs: median(after.slice(1).map((run) => run.triggerMs)),
      firstStepCallsAfterHistoryMs: after[0].stepCallsMs,
    };
  } finally {
    await slipway.close();
  }
}

/** Runnable alone: `npm run build && node dist/bench/runner-steps.bench.js`. */
export function printRunnerSteps(r: RunnerStepsResult): void {
  const f = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d });
  const ms = (n: number) => `${f(n, 2)} ms`;
  const firstRange = `1-${f(r.measured)}`;
  const afterRange = `${f(r.deployments + 1)}-${f(r.deployments + r.measured)}`;
  console.log(
    `\nrunner step events (in-process state machine, runner off; BENCH_DEPLOYMENTS=${r.deployments})`,
  );
  console.log(
    `  history: ${f(r.appendedDeployments)} finished deployments (${f(r.appendedEvents)} events) appended in ${f(r.appendSeconds, 2)} s (projections paused), projected in ${f(r.projectSeconds, 2)} s = ${f(r.appendedEvents / r.projectSeconds, 0)} events/s`,
  );
  for (const [label, pick] of [
    [`step call (${r.stepCallsPerDeployment} per deployment)`, (c: StepCosts) => c.stepMedianMs],
    ['log write (3 lines per step)      ', (c: StepCosts) => c.logMedianMs],
    ['whole deployment (calls + logs)   ', (c: StepCosts) => c.deploymentMedianMs],
  ] as const) {
    const a = pick(r.first);
    const b = pick(r.after);
    console.log(
      `  ${label.padEnd(34)} median ${ms(a)} (deployments ${firstRange}) vs ${ms(b)} (${afterRange}) = ${f(b / a, 2)} x`,
    );
  }
  const kinds = Object.keys(r.first.byKindMs).map(
    (kind) =>
      `${kind} ${f(r.first.byKindMs[kind], 2)} -> ${f(r.after.byKindMs[kind], 2)} (${f(r.after.byKindMs[kind] / r.first.byKindMs[kind], 2)} x)`,
  );
  console.log(`  by call, median ms: ${kinds.join(', ')}`);
  const firstSteps = r.firstStepCallsAfterHistoryMs;
  console.log(
    `  first command after the history was appended (its trigger over HTTP, which catches up on the stream): ${ms(r.firstCommandAfterHistoryMs)}; that deployment's step calls: max ${ms(Math.max(...firstSteps))}, median ${ms(median(firstSteps))}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printRunnerSteps(await benchRunnerSteps(Number(process.env.BENCH_DEPLOYMENTS ?? 10_000)));
}
