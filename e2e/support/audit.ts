import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
} from '../../src/eventstore/event-store.port.js';
import type { AuditEntryView } from '../../src/audit/trail/audit-entry-view.js';
import { RefusalRecorder } from '../../src/audit/refusals/refusal-recorder.js';
import { writeFileSync } from 'node:fs';
import { expect } from '@jest/globals';
import request from 'supertest';
import { call } from './identity.js';
import type { TestApp } from './test-app.js';

/** Every event in the store, in global order (tests only: small stores). */
export async function allEvents(t: TestApp): Promise<RecordedEvent[]> {
  return t.app.get<EventStore>(EVENT_STORE).readAll(1n, 10_000);
}

export async function refusals(t: TestApp): Promise<RecordedEvent[]> {
  return (await allEvents(t)).filter(
    (e) => e.type === 'AccessDenied' || e.type === 'CommandRejected',
  );
}

/** Closes every open coalescing window now (as shutdown does) and writes its count. */
export function flushRefusals(t: TestApp): Promise<void> {
  return t.app.get(RefusalRecorder).sweep(true);
}

/** An entry as `auditTrail` answers it. */
export type EntryView = AuditEntryView;

export async function trail(
  t: TestApp,
  auth: Record<string, string>,
  input: Record<string, unknown> = {},
): Promise<{ entries: EntryView[]; nextCursor: string | null }> {
  const res = await call(t.url, 'GET', 'auditTrail', auth, input);
  if (res.status !== 200) throw new Error(`auditTrail: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.data.json;
}

/** Everything events say (data and metadata), as one searchable text. */
export async function eventsText(t: TestApp): Promise<string> {
  return JSON.stringify((await allEvents(t)).map((e) => [e.type, e.stream, e.data, e.metadata]));
}

/** `GET /api/v1/audit/export` as `auth`, written to `file` as sent; its bytes (a 200 expected). */
export async function downloadExport(
  url: string,
  auth: Record<string, string>,
  file: string,
  query = 'format=ndjson',
): Promise<Buffer> {
  const res = await request(url)
    .get(`/api/v1/audit/export?${query}`)
    .set(auth)
    .buffer(true)
    .parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
  expect(res.status).toBe(200);
  writeFileSync(file, res.body as Buffer);
  return res.body as Buffer;
}
