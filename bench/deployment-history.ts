import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { createApp } from '../src/app/create-app.js';
import { loadConfig } from '../src/config/app-config.js';
import { DeploymentLogStore } from '../src/deployments/deployment-log-store.js';
import { DeploymentStateMachine } from '../src/deployments/deployment-state-machine.js';
import { triggerEventId } from '../src/deployments/service-deployments.decider.js';
import {
  EVENT_STORE,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from '../src/eventstore/event-store.port.js';
import { runnerContext } from '../src/runner/run-control.js';
import {
  readyService as readyServiceWith,
  rpc,
  signUpOwner,
  type ApiSession,
} from './bench-api.js';

/**
 * Shared by the runner-steps and projection-rebuild benchmarks: the real application in this
 * process (runner off, automatic audit sealing off, throwaway data directory), deployments
 * driven through the runner's own state machine the way e2e/support/deployments.ts does, and a
 * fast way to give a service a long history: real deployments are recorded once and their
 * events are appended again, under new ids, through the EventStore port.
 */

/** The steps the runner records for a service without a health-check URL, in order. */
export const RUNNER_STEPS = [
  'connect',
  'write-compose',
  'write-env',
  'pull',
  'up',
  'health',
  'record-digest',
];
const LOG_LINES_PER_STEP = 3;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface InProcessSlipway extends ApiSession {
  app: INestApplication;
  dataDir: string;
  events: EventStore;
  /** Stops the app; the data directory is removed unless asked to keep it. */
  close(keepData?: boolean): Promise<void>;
}

export async function startInProcess(): Promise<InProcessSlipway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slipway-history-'));
  const defaults = loadConfig({});
  const config = {
    ...defaults,
    dataDir,
    port: 0,
    projectionPollMs: 50,
    runner: { ...defaults.runner, mode: 'off' as const },
    audit: { ...defaults.audit, sealEveryEvents: 0, sealSeconds: 0, verifySeconds: 0 },
  };
  const app = await createApp({ config, logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
  const url = `http://127.0.0.1:${port}`;
  const { cookie } = await signUpOwner(url);
  return {
    app,
    url,
    dataDir,
    cookie,
    events: app.get<EventStore>(EVENT_STORE),
    close: async (keepData = false) => {
      await app.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A ready service whose deployments have a secret and a plain variable to write. */
export const readyService = (slipway: InProcessSlipway, name: string) =>
  readyServiceWith(slipway, name, [
    { name: 'DATABASE_URL', value: 'postgres://db/app', secret: true },
    { name: 'LOG_LEVEL', value: 'info' },
  ]);

export type Outcome = 'succeeded' | 'failed' | 'cancelled';

export interface DeploymentRun {
  deploymentId: string;
  /** The triggerDeploy call over HTTP (not a step call), in ms. */
  triggerMs: number;
  /** Each state-machine call (start, stepStarted, stepFinished, succeed or fail), in ms. */
  stepCallsMs: number[];
  /** The kind of each of those calls, in the same order. */
  stepCallKinds: string[];
  /** Each write of a step's output lines to the log store, in ms. */
  logWritesMs: number[];
  /** Global positions around the deployment: its events lie in (before, after]. */
  before: bigint;
  after: bigint;
}

/**
 * One deployment: triggered over HTTP (timed apart), then driven like the runner drives it, with
 * a few output lines per step: to success, to a failed `pull`, or cancelled while queued.
 */
export async function runDeployment(
  slipway: InProcessSlipway,
  serviceId: string,
  version: number,
  outcome: Outcome = 'succeeded',
): Promise<DeploymentRun> {
  const machine = slipway.app.get(DeploymentStateMachine);
  const logs = slipway.app.get(DeploymentLogStore);
  const before = await slipway.events.headPosition();
  const imageRef = `ghcr.io/acme/api:1.0.${version}`;
  const triggered = performance.now();
  const { deploymentId } = await rpc<{ deploymentId: string }>(slipway, 'triggerDeploy', {
    serviceId,
    imageTag: imageRef,
  });
  const run: DeploymentRun = {
    deploymentId,
    triggerMs: performance.now() - triggered,
    stepCallsMs: [],
    stepCallKinds: [],
    logWritesMs: [],
    before,
    after: 0n,
  };
  if (outcome === 'cancelled') {
    await rpc(slipway, 'cancelDeployment', { deploymentId });
    run.after = await slipway.events.headPosition();
    return run;
  }
  const ctx = runnerContext(deploymentId);
  const apply = async (transition: Parameters<DeploymentStateMachine['apply']>[0]) => {
    const started = performance.now();
    await machine.apply(transition, ctx);
    run.stepCallsMs.push(performance.now() - started);
    run.stepCallKinds.push(transition.kind);
  };
  let line = 0;
  const writeLog = async (step: string) => {
    const at = new Date().toISOString();
    const batch = Array.from({ length: LOG_LINES_PER_STEP }, (_, i) => ({
      deploymentId,
      line: ++line,
      step,
      stream: 'stdout' as const,
      text: `${step}: output line ${i + 1} of the bench deployment ${version}`,
      at,
    }));
    const started = performance.now();
    await logs.append(batch);
    run.logWritesMs.push(performance.now() - started);
  };
  await apply({ kind: 'start', deploymentId, runnerId: 'bench-runner' });
  for (const step of RUNNER_STEPS) {
    await apply({ kind: 'stepStarted', deploymentId, step });
    await writeLog(step);
    if (outcome === 'failed' && step === 'pull') {
      const reason = 'pull exited with 1';
      await apply({ kind: 'stepFinished', deploymentId, step, ok: false, detail: reason });
      await apply({ kind: 'fail', deploymentId, reason, step });
      run.after = await slipway.events.headPosition();
      return run;
    }
    await apply({ kind: 'stepFinished', deploymentId, step, ok: true, detail: null });
  }
  await apply({
    kind: 'succeed',
    deploymentId,
    serviceId,
    imageRef,
    imageDigest: `sha256:${'c'.repeat(64)}`,
  });
  run.after = await slipway.events.headPosition();
  return run;
}

/** The events of one recorded deployment, to be appended again under new ids. */
export interface Template {
  deploymentId: string;
  events: RecordedEvent[];
}

export async function templateOf(store: EventStore, run: DeploymentRun): Promise<Template> {
  const events = await store.readAll(run.before + 1n, Number(run.after - run.before));
  const mentions = (e: RecordedEvent) =>
    e.stream.includes(run.deploymentId) || JSON.stringify(e.data).includes(run.deploymentId);
  return { deploymentId: run.deploymentId, events: events.filter(mentions) };
}

/** The mix of past deployments: mostly successes, some failures at `pull`, a few cancelled. */
export function outcomeOf(i: number): Outcome {
  if (i % 50 === 13) return 'cancelled';
  if (i % 20 === 7) return 'failed';
  return 'succeeded';
}

function clone(template: Template, sequence: number): { stream: string; event: NewEvent }[] {
  const id = randomUUID();
  const swap = (text: string) => text.replaceAll(template.deploymentId, id);
  return template.events.map((e) => {
    const data = JSON.parse(swap(JSON.stringify(e.data))) as Record<string, unknown>;
    if (typeof data.sequence === 'number') data.sequence = sequence;
    return {
      stream: swap(e.stream),
      event: {
        id: e.id === triggerEventId(template.deploymentId) ? triggerEventId(id) : undefined,
        type: e.type,
        schemaVersion: e.schemaVersion,
        data,
        metadata: JSON.parse(swap(JSON.stringify(e.metadata))) as NewEvent['metadata'],
      },
    };
  });
}

/**
 * Appends `count` finished deployments to a service's history, numbered from `firstSequence`,
 * each a copy of the template of its outcome with a new deployment id (and, for a trigger, the
 * id the trigger of that deployment id would get). Consecutive events of one stream go in one
 * append (at most 5,000 events). Returns how many events were appended.
 */
export async function appendHistory(
  store: EventStore,
  templates: Record<Outcome, Template>,
  count: number,
  firstSequence: number,
): Promise<number> {
  let stream = '';
  let pending: NewEvent[] = [];
  let appended = 0;
  const flush = async () => {
    if (pending.length) await store.append(stream, pending, 'any');
    appended += pending.length;
    pending = [];
  };
  for (let i = 0; i < count; i++) {
    const sequence = firstSequence + i;
    for (const item of clone(templates[outcomeOf(sequence)], sequence)) {
      if (item.stream !== stream || pending.length >= 5_000) {
        await flush();
        stream = item.stream;
      }
      pending.push(item.event);
    }
  }
  await flush();
  return appended;
}

/** Waits until every projection of the app has applied every event in the store. */
export async function projectionsCaughtUp(slipway: InProcessSlipway): Promise<void> {
  const runner = slipway.app.get(ProjectionRunner);
  const head = Number(await slipway.events.headPosition());
  runner.poke();
  while (runner.position() < head) {
    const failing = runner.status().find((s) => s.status === 'failing');
    if (failing) throw new Error(`projection ${failing.name} failed: ${failing.lastError}`);
    await sleep(20);
  }
}
