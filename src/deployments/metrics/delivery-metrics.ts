/**
 * Delivery metrics (the four DORA keys) from deployment read models: a pure calculation over the
 * deployments that finished inside a window, per service and environment.
 *
 * - deployment frequency: succeeded deployments per day of the window;
 * - lead time: from a deployment's request (triggered) to its success; Slipway does not see
 *   commits, so this is the lead time through the platform (approval and queue included);
 * - change failure rate: failed / (succeeded + failed);
 * - time to restore: from a failed deployment's end to the end of the next succeeded one of the
 *   same service and environment; failures not yet followed by a success are counted apart.
 */
export interface FinishedDeployment {
  serviceId: string;
  serviceName: string;
  environment: string;
  status: 'succeeded' | 'failed' | 'cancelled' | 'queued' | 'running';
  createdAt: string;
  finishedAt: string | null;
}

export interface Window {
  from: string;
  to: string;
  days: number;
}

export interface Durations {
  /** seconds */
  median: number;
  /** seconds */
  p90: number;
  count: number;
}

export interface DayCount {
  /** UTC day, YYYY-MM-DD */
  date: string;
  succeeded: number;
  failed: number;
}

export interface DeliveryMetrics {
  serviceId: string | null;
  serviceName: string | null;
  environment: string | null;
  succeeded: number;
  failed: number;
  deploymentsPerDay: number;
  leadTimeSeconds: Durations | null;
  changeFailureRate: number | null;
  timeToRestoreSeconds: Durations | null;
  unrestoredFailures: number;
  daily: DayCount[];
}

const DAY_MS = 86_400_000;

/** The window of `days` whole UTC days ending with the day of `now`. */
export function metricsWindow(now: Date, days: number): Window {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
  return {
    from: new Date(end - days * DAY_MS).toISOString(),
    to: new Date(end).toISOString(),
    days,
  };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index];
}

function durations(values: number[]): Durations | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
  return { median, p90: percentile(sorted, 0.9), count: sorted.length };
}

const seconds = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

function days(window: Window): DayCount[] {
  const start = Date.parse(window.from);
  return Array.from({ length: window.days }, (_, i) => ({
    date: new Date(start + i * DAY_MS).toISOString().slice(0, 10),
    succeeded: 0,
    failed: 0,
  }));
}

/** The metrics of one group of deployments (already limited to one service, or to all). */
function measure(
  group: FinishedDeployment[],
  window: Window,
): Omit<DeliveryMetrics, 'serviceId' | 'serviceName' | 'environment'> {
  const ended = group
    .filter((d) => d.finishedAt !== null && (d.status === 'succeeded' || d.status === 'failed'))
    .filter((d) => d.finishedAt! >= window.from && d.finishedAt! < window.to)
    .sort((a, b) => a.finishedAt!.localeCompare(b.finishedAt!));
  const daily = days(window);
  const byDate = new Map(daily.map((d) => [d.date, d]));
  for (const d of ended) {
    const day = byDate.get(d.finishedAt!.slice(0, 10));
    if (day) day[d.status === 'succeeded' ? 'succeeded' : 'failed'] += 1;
  }
  const succeeded = ended.filter((d) => d.status === 'succeeded');
  const failed = ended.filter((d) => d.status === 'failed');
  const restores: number[] = [];
  let unrestored = 0;
  for (const failure of failed) {
    const next = succeeded.find(
      (s) => s.serviceId === failure.serviceId && s.finishedAt! > failure.finishedAt!,
    );
    if (next) restores.push(seconds(failure.finishedAt!, next.finishedAt!));
    else unrestored += 1;
  }
  const changes = succeeded.length + failed.length;
  return {
    succeeded: succeeded.length,
    failed: failed.length,
    deploymentsPerDay: Math.round((succeeded.length / window.days) * 100) / 100,
    leadTimeSeconds: durations(succeeded.map((d) => seconds(d.createdAt, d.finishedAt!))),
    changeFailureRate: changes === 0 ? null : Math.round((failed.length / changes) * 1000) / 1000,
    timeToRestoreSeconds: durations(restores),
    unrestoredFailures: unrestored,
    daily,
  };
}

/** Per service and environment (by name), and for all of them together. */
export function deliveryMetrics(
  deployments: FinishedDeployment[],
  window: Window,
): { overall: DeliveryMetrics; services: DeliveryMetrics[] } {
  const groups = new Map<string, FinishedDeployment[]>();
  for (const d of deployments) {
    const group = groups.get(d.serviceId) ?? [];
    group.push(d);
    groups.set(d.serviceId, group);
  }
  const services = [...groups.values()]
    .map((group) => ({
      serviceId: group[0].serviceId,
      serviceName: group[0].serviceName,
      environment: group[0].environment,
      ...measure(group, window),
    }))
    .sort(
      (a, b) =>
        a.serviceName.localeCompare(b.serviceName) || a.environment.localeCompare(b.environment),
    );
  return {
    overall: {
      serviceId: null,
      serviceName: null,
      environment: null,
      ...measure(deployments, window),
    },
    services,
  };
}
