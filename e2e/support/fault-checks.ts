import { applicationProjections } from '../../projections/index.js';
import { projectInMemory } from '../../projections/project-in-memory.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.port.js';
import { PostgresEventStore } from '../../src/eventstore/postgres/postgres-event-store.js';
import type { RequestRecord } from '../fixtures/fault-load.js';
import type { FaultCluster } from './fault-cluster.js';

// What the fault suite checks once the load has stopped, read from the shared database.

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The head of the log now, once every projection's checkpoint has reached it. */
export async function settleProjections(cluster: FaultCluster): Promise<bigint> {
  const [{ head }] = await cluster.query<{ head: string }>(
    'SELECT max(position) AS head FROM slipway_events',
  );
  for (let i = 0; i < 300; i++) {
    const [{ lowest }] = await cluster.query<{ lowest: string | null }>(
      `SELECT min((doc->>'position')::bigint) AS lowest FROM rm_projection_checkpoints`,
    );
    if (lowest !== null && BigInt(lowest) >= BigInt(head)) break;
    await pause(200);
  }
  return BigInt(head);
}

export async function missing(
  cluster: FaultCluster,
  acknowledged: RequestRecord[],
): Promise<Set<string>> {
  const byKind = {
    registerServer: { type: 'ServerRegistered', field: 'serverId', table: 'rm_servers' },
    createToken: { type: 'TokenMinted', field: 'tokenId', table: 'rm_api_tokens' },
    triggerDeploy: {
      type: 'DeploymentTriggered',
      field: 'deploymentId',
      table: 'rm_deployments',
    },
  } as const;
  const lost = new Set<string>();
  for (const [kind, where] of Object.entries(byKind)) {
    const ids = acknowledged.filter((r) => r.kind === kind).map((r) => r.id!);
    const logged = await cluster.query<{ id: string }>(
      `SELECT data::jsonb->>'${where.field}' AS id FROM slipway_events WHERE type = $1`,
      [where.type],
    );
    const read = await cluster.query<{ id: string }>(`SELECT id FROM ${where.table}`);
    const inLog = new Set(logged.map((r) => r.id));
    const inReads = new Set(read.map((r) => r.id));
    for (const id of ids) if (!inLog.has(id) || !inReads.has(id)) lost.add(id);
  }
  return lost;
}

/**
 * Ids (`collection/id`) whose stored document differs from a rebuild from every event up to
 * `head`. The API replicas still seal the audit trail meanwhile: a document changed by a later
 * event is left out.
 */
export async function readModelDrift(cluster: FaultCluster, head: bigint): Promise<string[]> {
  const store = await PostgresEventStore.connect(cluster.databaseUrl, { maxConnections: 1 });
  const events: RecordedEvent[] = [];
  try {
    for (let from = 1n; ;) {
      const page = (await store.readAll(from, 1000)).filter((e) => e.position <= head);
      events.push(...page);
      if (page.length < 1000) break;
      from = page[page.length - 1].position + 1n;
    }
  } finally {
    await store.close();
  }
  const differ: string[] = [];
  for (const projection of applicationProjections) {
    const rebuilt = projectInMemory(projection, events);
    for (const [collection, docs] of Object.entries(rebuilt)) {
      const rows = await cluster.query<{ id: string; doc: Record<string, unknown> }>(
        `SELECT id, doc FROM rm_${collection}`,
      );
      const stored = new Map(rows.map((r) => [r.id, r.doc]));
      const later = (id: string) => Number(stored.get(id)?._position ?? 0) > Number(head);
      const ids = new Set([...stored.keys(), ...Object.keys(docs)]);
      for (const id of ids) {
        if (later(id)) continue;
        const { _position: _p, ...live } = stored.get(id) ?? {};
        const expected = docs[id] ? JSON.parse(JSON.stringify(docs[id])) : undefined;
        if (JSON.stringify(sorted(live)) !== JSON.stringify(sorted(expected ?? {})))
          differ.push(`${collection}/${id}`);
      }
    }
  }
  return differ;
}

/** How many refusals of each status and code (`503 SERVICE_UNAVAILABLE: 12`). */
export function refusals(records: RequestRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records.filter((r) => r.outcome === 'refused')) {
    const key = `${r.status} ${r.code ?? ''}`.trim();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** A JSON value with its object keys in order (jsonb stores them its own way). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, sorted(v)]),
    );
  return value;
}
