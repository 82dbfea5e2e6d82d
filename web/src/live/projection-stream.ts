import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ProcedureName } from '../api/contract';

/** Which read procedures answer from which read model (projection). */
const READS_OF: Record<string, ProcedureName[]> = {
  deployments: [
    'recentDeployments',
    'deploymentDetails',
    'infrastructureInventory',
    'deliveryMetrics',
  ],
  approvals: ['approvalQueue'],
  servers: ['infrastructureInventory'],
  services: ['infrastructureInventory'],
  api_tokens: ['tokens'],
  principals: ['agents', 'members'],
  security_policy: ['accountSecurityStatus'],
  audit_trail: ['auditTrail'],
  scheduled_jobs: ['scheduledJobs', 'jobRuns'],
  drains: ['drains'],
  alerts: ['alerts', 'alertRules'],
};

interface ProjectionPosition {
  name: string;
  position: number;
}

/**
 * Live data without a reload: the projection stream (`GET /api/v1/projections/stream`, server-sent
 * events) says where each read model stands every 2 s; when one moved, the queries that read it
 * are invalidated, and TanStack Query refetches those on screen.
 */
export function useLiveReadModels(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const seen = new Map<string, number>();
    const source = new EventSource('/api/v1/projections/stream');
    source.addEventListener('projections', (event) => {
      const moved = changedReadModels(seen, (event as MessageEvent<string>).data);
      invalidate(queryClient, moved);
    });
    return () => source.close();
  }, [queryClient]);
}

/** The read models whose position moved since the last message (none on the first). */
export function changedReadModels(seen: Map<string, number>, raw: string): string[] {
  let projections: ProjectionPosition[];
  try {
    projections = (JSON.parse(raw) as { projections: ProjectionPosition[] }).projections;
  } catch {
    return [];
  }
  const moved: string[] = [];
  for (const p of projections) {
    const before = seen.get(p.name);
    if (before !== undefined && before !== p.position) moved.push(p.name);
    seen.set(p.name, p.position);
  }
  return moved;
}

function invalidate(queryClient: QueryClient, moved: string[]): void {
  const names = new Set(moved.flatMap((m) => READS_OF[m] ?? []));
  for (const name of names) void queryClient.invalidateQueries({ queryKey: [name] });
}
