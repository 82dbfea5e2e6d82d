import type { NewEvent } from '../event-store.port.js';
import type { EventMetadata } from '../event-metadata.js';

export const testMetadata: EventMetadata = {
  actor: { principalId: 'user-1', kind: 'user', role: 'owner' },
  authMethod: 'token',
  tokenId: 'tok-1',
  requestId: 'req-1',
  correlationId: 'corr-1',
  causationId: 'cause-1',
  clientAddress: '127.0.0.1',
};

export function testEvent(type: string, data: Record<string, unknown> = {}, id?: string): NewEvent {
  return { id, type, schemaVersion: 1, data, metadata: testMetadata };
}
