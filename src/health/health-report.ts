export interface ProjectionHealth {
  name: string;
  version: number;
  position: number;
  /** Events it has yet to apply (on a server store with sparse positions: counted up to 1,000). */
  lag: number;
  /** `superseded`: a replica with a newer version of it applies it; this one stopped. */
  status: 'running' | 'failing' | 'superseded';
}

/** What anyone may know: whether the service is well, and which version it runs. */
export interface HealthSummary {
  status: 'ok' | 'degraded';
  version: string;
}

/** For authenticated callers: the figures behind the status. */
export interface HealthReport extends HealthSummary {
  uptimeSeconds: number;
  /** `state`: a server store's connection state (`connecting`, `ready`, `unavailable`). */
  eventStore: { ready: boolean; headPosition: number; state?: string };
  /** The projections' store (rebuildable). */
  readStore: { ready: boolean };
  /** The store of data no event records (deployment output, usage, deliveries, audit links). */
  primaryStore: { ready: boolean };
  projections: { lag: number; items: ProjectionHealth[] };
}
