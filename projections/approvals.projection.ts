import type { Requester } from '../src/events/deployments.events.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/**
 * `approvals`: `{id, action, serviceId, payload (frozen), reason, requestedBy, requestedAt,
 * expiresAt, status: "pending"|"approved"|"rejected", decidedBy, decidedAt, note,
 * executedDeploymentId}`. A pending request past `expiresAt` reads as expired.
 */
export interface ApprovalDoc extends Doc {
  action: string;
  serviceId: string;
  payload: Record<string, unknown>;
  reason: string;
  requestedBy: Requester;
  requestedAt: string;
  expiresAt: string;
  status: 'pending' | 'approved' | 'rejected';
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  executedDeploymentId: string | null;
}

const byApproval = (e: RecordedEvent) => String(e.data.approvalId);
const decided = (status: 'approved' | 'rejected') => [
  {
    collection: 'approvals',
    documentId: byApproval,
    evolve: (c: Doc | null, e: RecordedEvent) =>
      c
        ? {
            ...c,
            status,
            decidedBy: String(e.data.decidedBy),
            decidedAt: e.recordedAt,
            note: (e.data.note as string | null) ?? null,
          }
        : null,
  },
];

export const approvalsProjection: Projection = {
  name: 'approvals',
  version: 1,
  collections: [{ name: 'approvals', indexes: [{ fields: ['status', 'requestedAt'] }] }],
  handlers: {
    ApprovalRequested: [
      {
        collection: 'approvals',
        documentId: byApproval,
        evolve: (_c, e): ApprovalDoc => ({
          id: String(e.data.approvalId),
          action: String(e.data.action),
          serviceId: String(e.data.serviceId),
          payload: e.data.payload as Record<string, unknown>,
          reason: String(e.data.reason),
          requestedBy: e.data.requestedBy as Requester,
          requestedAt: e.recordedAt,
          expiresAt: String(e.data.expiresAt),
          status: 'pending',
          decidedBy: null,
          decidedAt: null,
          note: null,
          executedDeploymentId: null,
        }),
      },
    ],
    ApprovalGranted: decided('approved'),
    ApprovalRejected: decided('rejected'),
    ApprovalExecuted: [
      {
        collection: 'approvals',
        documentId: byApproval,
        evolve: (c, e) => (c ? { ...c, executedDeploymentId: String(e.data.deploymentId) } : null),
      },
    ],
  },
};
