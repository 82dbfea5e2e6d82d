import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  MAX_FIND_LIMIT,
  PRIMARY_STORE,
  type CollectionSpec,
  type Doc,
  type ReadStore,
} from '../../readstore/read-store.port.js';

/** The numbers a sample holds: a server's or a container's (see metric-readings.ts). */
export const METRICS = [
  'cpuPercent',
  'memoryPercent',
  'memoryBytes',
  'diskPercent',
  'dockerDiskBytes',
  'restarts',
] as const;
export type MetricName = (typeof METRICS)[number];
export type MetricValues = Partial<Record<MetricName, number | null>>;

export type Resolution = 'raw' | 'hour';

/**
 * One sample of one series (`server:<serverId>` or `container:<serviceId>:<name>`) in
 * `metric_samples`: as read (`raw`, id `<series>@<slot>`, so two runners reading in the same
 * interval write one), or an hour's mean and maximum (`hour`, id `<series>#<hour>`).
 */
export interface MetricSampleDoc extends Doc {
  series: string;
  serverId: string;
  serviceId: string | null;
  container: string | null;
  resolution: Resolution;
  /** The reading's time, or the hour's start. */
  at: string;
  values: MetricValues;
  /** The hour's highest values (a raw sample's are its values). */
  max: MetricValues;
  /** Samples in an hour; the slot last added, so a slot counts once. */
  count: number;
  /** Of those, the ones that read each metric (its mean's weight). */
  counts: Partial<Record<MetricName, number>>;
  lastSlot: number;
  /** A container's state and health as read (an hour's: the last). */
  state: string | null;
  health: string | null;
}

/** Not derived from events: the only copy of what was measured, in the primary store. */
export const METRIC_SAMPLES: CollectionSpec = {
  name: 'metric_samples',
  indexes: [{ fields: ['series', 'resolution', 'at'] }, { fields: ['resolution', 'at'] }],
};

export interface Sample {
  series: string;
  serverId: string;
  serviceId: string | null;
  container: string | null;
  values: MetricValues;
  state: string | null;
  health: string | null;
}

const HOUR = 3600_000;
const PRUNE_BATCH = 1000;

export const serverSeries = (serverId: string) => `server:${serverId}`;
export const containerSeries = (serviceId: string, name: string) =>
  `container:${serviceId}:${name}`;

/**
 * Metrics history: each reading kept as read for a while, and as hourly means and maxima for
 * longer (downsampled as it is written, so nothing has to be rolled up later); both pruned by
 * age. Apart from the event log and the read models.
 */
@Injectable()
export class MetricSamples implements OnModuleInit {
  constructor(@Inject(PRIMARY_STORE) private readonly primary: ReadStore) {}

  /** Declared at start, as every collection of the primary store is. */
  async onModuleInit(): Promise<void> {
    await this.primary.ensureCollection(METRIC_SAMPLES);
  }

  private samples() {
    return this.primary.collection<MetricSampleDoc>(METRIC_SAMPLES.name);
  }

  /** Records one reading of each series, taken at `at`, in the interval slot `slot`. */
  async record(samples: Sample[], at: Date, slot: number): Promise<void> {
    const collection = this.samples();
    const hour = new Date(Math.floor(at.getTime() / HOUR) * HOUR).toISOString();
    for (const sample of samples) {
      await collection.put({
        id: `${sample.series}@${slot}`,
        ...sample,
        resolution: 'raw',
        at: at.toISOString(),
        max: sample.values,
        count: 1,
        counts: {},
        lastSlot: slot,
      });
      const hourId = `${sample.series}#${hour}`;
      const before = await collection.get(hourId);
      if (before?.lastSlot === slot) continue;
      await collection.put(hourly(before, hourId, hour, sample, slot));
    }
  }

  /** Samples of one series from `since` on, oldest first, at most `limit`. */
  async read(
    series: string,
    resolution: Resolution,
    since: Date,
    limit = 1000,
  ): Promise<MetricSampleDoc[]> {
    const collection = this.samples();
    const filter = { series, resolution, at: { $gte: since.toISOString() } };
    // The newest `limit`, read a page at a time (a store answers at most 1,000 at once).
    const out: MetricSampleDoc[] = [];
    let cursor: string | undefined;
    do {
      const page = await collection.find(filter, {
        sort: { at: -1 },
        limit: Math.min(limit - out.length, MAX_FIND_LIMIT),
        cursor,
      });
      out.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && out.length < limit);
    return out.reverse();
  }

  /** The series that have samples of `resolution` from `since` on whose `field` is `value`. */
  async seriesOf(
    field: 'serverId' | 'serviceId',
    value: string,
    since: Date,
  ): Promise<MetricSampleDoc[]> {
    const collection = this.samples();
    const page = await collection.find(
      { [field]: value, resolution: 'hour', at: { $gte: since.toISOString() } },
      { sort: { at: -1 }, limit: 1000 },
    );
    const latest = new Map<string, MetricSampleDoc>();
    for (const doc of page.items) if (!latest.has(doc.series)) latest.set(doc.series, doc);
    return [...latest.values()];
  }

  /** Deletes raw samples older than `rawBefore` and hourly ones older than `hourlyBefore`. */
  async prune(rawBefore: Date, hourlyBefore: Date): Promise<number> {
    const collection = this.samples();
    let removed = 0;
    for (const [resolution, before] of [
      ['raw', rawBefore],
      ['hour', hourlyBefore],
    ] as const) {
      const { items } = await collection.find(
        { resolution, at: { $lt: before.toISOString() } },
        { sort: { at: 1 }, limit: PRUNE_BATCH },
      );
      for (const doc of items) await collection.delete(doc.id);
      removed += items.length;
    }
    return removed;
  }
}

/** An hour's document with one more sample in its means and maxima. */
export function hourly(
  before: MetricSampleDoc | null,
  id: string,
  hour: string,
  sample: Sample,
  slot: number,
): MetricSampleDoc {
  const count = (before?.count ?? 0) + 1;
  const counts: Partial<Record<MetricName, number>> = { ...before?.counts };
  const values: MetricValues = {};
  const max: MetricValues = {};
  for (const name of METRICS) {
    const value = sample.values[name];
    const mean = before?.values[name];
    const top = before?.max[name];
    if (value === undefined || value === null) {
      if (mean !== undefined) values[name] = mean;
      if (top !== undefined) max[name] = top;
      continue;
    }
    const weight = (counts[name] = (counts[name] ?? 0) + 1);
    values[name] =
      mean === undefined || mean === null
        ? value
        : Math.round((mean + (value - mean) / weight) * 100) / 100;
    max[name] = top === undefined || top === null ? value : Math.max(top, value);
  }
  return {
    id,
    series: sample.series,
    serverId: sample.serverId,
    serviceId: sample.serviceId,
    container: sample.container,
    resolution: 'hour',
    at: hour,
    values,
    max,
    count,
    counts,
    lastSlot: slot,
    state: sample.state,
    health: sample.health,
  };
}
