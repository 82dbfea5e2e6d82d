export interface ProjectionHealth {
  name: string;
  version: number;
  position: number;
  lag: number;
  status: 'running' | 'failing';
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  version: string;
  uptimeSeconds: number;
  eventStore: { ready: boolean; headPosition: number };
  readStore: { ready: boolean };
  projections: { lag: number; items: ProjectionHealth[] };
}
