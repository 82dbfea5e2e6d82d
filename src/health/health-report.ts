export interface ProjectionHealth {
  name: string;
  version: number;
  position: number;
  lag: number;
  status: 'running' | 'failing';
}

/** What anyone may know: whether the service is well, and which version it runs. */
export interface HealthSummary {
  status: 'ok' | 'degraded';
  version: string;
}

/** For authenticated callers: the figures behind the status. */
export interface HealthReport extends HealthSummary {
  uptimeSeconds: number;
  eventStore: { ready: boolean; headPosition: number };
  readStore: { ready: boolean };
  projections: { lag: number; items: ProjectionHealth[] };
}
