import { describe, expect, it } from '@jest/globals';
import { auditEntryOf } from '../../../projections/audit-trail.projection.js';
import { systemMetadata } from '../../eventstore/event-metadata.js';
import type { RecordedEvent } from '../../eventstore/event-store.port.js';
import { csvEntryBreak } from '../export/export-entries.js';
import { csvRow, CSV_COLUMNS } from '../export/export-codecs.js';
import { rawEventOf } from '../export/export-format.js';
import { auditEntryView } from './audit-entry-view.js';
import { expectedView, storedEntryBreak, viewBreak } from './entry-check.js';

const OWNER = 'u-owner';
const VIEWER = 'u-viewer';
const event = (over: Partial<RecordedEvent> = {}): RecordedEvent => ({
  id: 'e-16',
  type: 'DeploymentTriggered',
  schemaVersion: 1,
  stream: 'deployment-1',
  revision: 0n,
  position: 16n,
  recordedAt: '2026-11-30T01:00:00.000Z',
  data: { deploymentId: 'd-1' },
  metadata: systemMetadata({
    actor: { principalId: OWNER, kind: 'user', role: 'owner' },
    authMethod: 'session',
    requestId: 'r-1',
    clientAddress: { pii: 1, subject: 'user-u-owner', ct: 'sealed' },
  }),
  ...over,
});
/** The entry as the export shows it, names resolved from the read models. */
const shown = (e: RecordedEvent) =>
  auditEntryView(auditEntryOf(e), {
    label: 'Olive Owner <owner@example.com>',
    tokenName: null,
    clientAddress: '203.0.113.9',
  });
const csvOf = (e: RecordedEvent, entry: ReturnType<typeof shown> | null) => {
  const values = csvRow({ kind: 'event', event: rawEventOf(e), entry });
  return Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, values[i]]));
};

describe('an entry of the trail against its event', () => {
  it('Given the entry the projection made, Then it matches, whatever names were resolved beside it', () => {
    const e = event();
    expect(storedEntryBreak(e, auditEntryOf(e))).toBeNull();
    expect(viewBreak(e, shown(e))).toBeNull();
    expect(csvEntryBreak(e, csvOf(e, shown(e)))).toBeNull();
  });

  it('Given an entry whose actor was changed in the read model, Then it is a mismatch naming the field and position', () => {
    const e = event();
    const altered = { ...auditEntryOf(e), actorId: VIEWER, actorRole: 'viewer' };
    expect(storedEntryBreak(e, altered)).toEqual({
      problem: 'entry-mismatch',
      firstBadPosition: 16,
      message: 'the entry of the audit trail for event 16 does not match the event (actorId)',
    });
    const view = auditEntryView(altered, {
      label: 'Vic Viewer',
      tokenName: null,
      clientAddress: null,
    });
    expect(viewBreak(e, view)).toMatchObject({ problem: 'entry-mismatch', firstBadPosition: 16 });
    expect(csvEntryBreak(e, csvOf(e, view))).toMatchObject({ problem: 'entry-mismatch' });
  });

  it('Given no entry for an event, Then it is missing', () => {
    const e = event();
    expect(storedEntryBreak(e, undefined)).toMatchObject({
      problem: 'entry-missing',
      firstBadPosition: 16,
    });
    expect(viewBreak(e, null)).toMatchObject({ problem: 'entry-missing' });
    expect(csvEntryBreak(e, csvOf(e, null))).toMatchObject({ problem: 'entry-missing' });
  });

  it('Given a system event, Then its label must be `system`', () => {
    const e = event({ metadata: systemMetadata() });
    expect(expectedView(e).actor.label).toBe('system');
    const claimed = {
      ...expectedView(e),
      actor: { ...expectedView(e).actor, label: 'Olive Owner' },
    };
    expect(viewBreak(e, claimed)).toMatchObject({ message: /actor\.label/ });
  });

  it('Given a read store that keeps U+FFFD for U+0000 (PostgreSQL), Then the entry still matches', () => {
    const e = event({ metadata: { ...event().metadata, requestId: 'r\u0000x' } });
    const stored = { ...auditEntryOf(e), requestId: 'r\ufffdx' };
    expect(storedEntryBreak(e, stored)).toBeNull();
  });
});
