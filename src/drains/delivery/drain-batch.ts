import { Inject, Injectable } from '@nestjs/common';
import type { AuditEntryDoc } from '../../../projections/audit-trail.projection.js';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { EntryResolver } from '../../audit/trail/entry-resolver.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { DeploymentLogStore } from '../../deployments/deployment-log-store.js';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../../eventstore/event-store.port.js';
import {
  DeploymentCancelled,
  DeploymentFailed,
  DeploymentStarted,
  DeploymentSucceeded,
} from '../../events/deployments.events.js';
import type { DrainSource } from '../../events/drains.events.js';
import { JobRunFailed, JobRunStarted, JobRunSucceeded } from '../../events/jobs.events.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { READ_MODELS, type ReadModels } from '../../storage/read-models.js';
import type { DrainRecord } from './drain-record.js';
import type { DrainStateDoc, OpenDeployment } from './drain-state.js';

/** Events read per batch; the audit entries of as many at most. */
const EVENTS_PER_BATCH = 200;
/** Output lines per batch, over every deployment followed. */
const LINES_PER_BATCH = 500;
/** An ended deployment's output is followed this long after its end (late lines, retried writes). */
const LATE_LINES_MS = 60_000;
/** Deployments followed at once per drain; the oldest ended ones give way first. */
const MAX_OPEN = 200;
const ENDED = new Set([DeploymentSucceeded.type, DeploymentFailed.type, DeploymentCancelled.type]);
const RUN_ENDED = new Set([JobRunSucceeded.type, JobRunFailed.type]);

export interface Batch {
  records: DrainRecord[];
  /** Where the drain stands once the records are delivered. */
  position: number;
  open: OpenDeployment[];
  /** More is waiting beyond this batch: ship again at once. */
  more: boolean;
}

/**
 * Gathers what a drain ships next, from where it stands: the audit entries of the next events
 * (once the audit trail has them), and the new output of the deployments it follows, which
 * it starts following at `DeploymentStarted` and stops a minute after their end, and likewise
 * of scheduled job runs (`JobRunStarted` to a minute after their end). Reads only:
 * nothing is marked shipped until the records are delivered.
 */
@Injectable()
export class DrainBatches {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly resolver: EntryResolver,
    private readonly logs: DeploymentLogStore,
  ) {}

  async next(sources: readonly DrainSource[], state: DrainStateDoc): Promise<Batch> {
    const events = await this.events.readAll(BigInt(state.position + 1), EVENTS_PER_BATCH);
    const records: DrainRecord[] = [];
    const position = events.length ? Number(events[events.length - 1].position) : state.position;
    if (events.length) {
      // The audit trail and the deployments as of these events, at least.
      await this.readModels.caughtUp(BigInt(position), new Set(events.map((e) => e.type)));
    }
    if (sources.includes('audit')) records.push(...(await this.auditRecords(events)));
    if (!sources.includes('deployment-logs')) {
      return { records, position, open: [], more: events.length === EVENTS_PER_BATCH };
    }
    const open = await this.follow(state.open, events);
    const { lines, full } = await this.outputOf(open);
    records.push(...lines);
    return {
      records,
      position,
      open: this.stillFollowed(open),
      more: events.length === EVENTS_PER_BATCH || full,
    };
  }

  private async auditRecords(events: RecordedEvent[]): Promise<DrainRecord[]> {
    if (events.length === 0) return [];
    const { items } = await this.reads.collection<AuditEntryDoc>('audit_trail').find(
      {
        position: {
          $gte: Number(events[0].position),
          $lte: Number(events[events.length - 1].position),
        },
      },
      { sort: { position: 1 }, limit: EVENTS_PER_BATCH },
    );
    const views = await this.resolver.resolve(items);
    return views.map((entry) => ({ source: 'audit', time: entry.time, entry }));
  }

  /**
   * The deployments and job runs followed after these events: started ones added, ended ones
   * marked.
   */
  private async follow(open: OpenDeployment[], events: RecordedEvent[]): Promise<OpenDeployment[]> {
    const next = open.map((o) => ({ ...o }));
    for (const event of events) {
      if (event.type === JobRunStarted.type) {
        const { runId, jobId, serviceId, deploymentId } = JobRunStarted.dataOf(event);
        if (next.some((o) => o.jobRun?.runId === runId)) continue;
        next.push({
          deploymentId,
          serviceId,
          jobRun: { runId, jobId },
          afterLine: 0,
          endedAt: null,
        });
        continue;
      }
      if (RUN_ENDED.has(event.type)) {
        const followed = next.find((o) => o.jobRun?.runId === event.data.runId);
        if (followed) followed.endedAt = event.recordedAt;
        continue;
      }
      const deploymentId = event.data.deploymentId;
      if (typeof deploymentId !== 'string') continue;
      if (event.type === DeploymentStarted.type) {
        if (next.some((o) => o.deploymentId === deploymentId)) continue;
        const doc = await this.reads.collection<DeploymentDoc>('deployments').get(deploymentId);
        next.push({ deploymentId, serviceId: doc?.serviceId ?? null, afterLine: 0, endedAt: null });
      } else if (ENDED.has(event.type)) {
        const followed = next.find((o) => o.deploymentId === deploymentId && !o.jobRun);
        if (followed) followed.endedAt = event.recordedAt;
      }
    }
    return next;
  }

  /** New lines of the followed deployments, oldest deployment first, within the batch's lines. */
  private async outputOf(open: OpenDeployment[]): Promise<{ lines: DrainRecord[]; full: boolean }> {
    const lines: DrainRecord[] = [];
    for (const followed of open) {
      const room = LINES_PER_BATCH - lines.length;
      if (room <= 0) return { lines, full: true };
      const key = followed.jobRun?.runId ?? followed.deploymentId;
      const page = await this.logs.read(key, followed.afterLine, room);
      for (const l of page.lines) {
        lines.push({
          source: 'deployment-logs',
          time: l.at,
          output: {
            deploymentId: followed.deploymentId,
            serviceId: followed.serviceId,
            jobId: followed.jobRun?.jobId ?? null,
            runId: followed.jobRun?.runId ?? null,
            line: l.line,
            step: l.step,
            stream: l.stream,
            text: l.text,
          },
        });
      }
      followed.afterLine = page.nextAfterLine;
      if (page.more) return { lines, full: true };
    }
    return { lines, full: false };
  }

  /** Ended deployments are let go a minute after their end; the oldest ended first past the cap. */
  private stillFollowed(open: OpenDeployment[]): OpenDeployment[] {
    const now = this.clock.now().getTime();
    const kept = open.filter((o) => !o.endedAt || now - Date.parse(o.endedAt) < LATE_LINES_MS);
    while (kept.length > MAX_OPEN) {
      const ended = kept.findIndex((o) => o.endedAt !== null);
      kept.splice(ended === -1 ? 0 : ended, 1);
    }
    return kept;
  }
}
