import {
  ApprovalExecuted,
  ApprovalGranted,
  ApprovalRejected,
  ApprovalRequested,
  type Requester,
} from '../src/events/deployments.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { RecordedEvent } from '../src/eventstore/event-store.port.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

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

const byApproval = (e: RecordedEvent<{ approvalId: string }>) => e.data.approvalId;

/** A decision on a request: who decided, when, with what note. */
const decided = (
  definition: typeof ApprovalGranted | typeof ApprovalRejected,
  status: 'approved' | 'rejected',
) =>
  on<EventDataOf<typeof definition>, ApprovalDoc>(definition, {
    collection: 'approvals',
    documentId: byApproval,
    evolve: (c, e) =>
      c
        ? {
            ...c,
            status,
            decidedBy: e.data.decidedBy,
            decidedAt: e.recordedAt,
            note: e.data.note ?? null,
          }
        : null,
  });

export const approvalsProjection: Projection = {
  name: 'approvals',
  version: 1,
  collections: [{ name: 'approvals', indexes: [{ fields: ['status', 'requestedAt'] }] }],
  handlers: handlersOf(
    on<EventDataOf<typeof ApprovalRequested>, ApprovalDoc>(ApprovalRequested, {
      collection: 'approvals',
      documentId: byApproval,
      evolve: (_c, { data, recordedAt }) => ({
        id: data.approvalId,
        action: data.action,
        serviceId: data.serviceId,
        payload: data.payload,
        reason: data.reason,
        requestedBy: data.requestedBy,
        requestedAt: recordedAt,
        expiresAt: data.expiresAt,
        status: 'pending',
        decidedBy: null,
        decidedAt: null,
        note: null,
        executedDeploymentId: null,
      }),
    }),
    decided(ApprovalGranted, 'approved'),
    decided(ApprovalRejected, 'rejected'),
    on<EventDataOf<typeof ApprovalExecuted>, ApprovalDoc>(ApprovalExecuted, {
      collection: 'approvals',
      documentId: byApproval,
      evolve: (c, e) => (c ? { ...c, executedDeploymentId: e.data.deploymentId } : null),
    }),
  ),
};
