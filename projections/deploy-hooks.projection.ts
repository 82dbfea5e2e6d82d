import {
  DeployHookCreated,
  DeployHookRevoked,
  type DeployHookRule,
} from '../src/events/notifications.events.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `deploy_hooks`: `{id, serviceId, name, secretCiphertext, rules, status: "active"|"revoked",
 * createdAt, createdBy, revokedAt, unsignedUrl}`. The signing secret stays sealed.
 */
export interface DeployHookDoc extends Doc {
  serviceId: string;
  name: string;
  secretCiphertext: string;
  rules: DeployHookRule[];
  status: 'active' | 'revoked';
  createdAt: string;
  createdBy: string | null;
  revokedAt: string | null;
  /** Takes unsigned deliveries at its token URL (absent: no). */
  unsignedUrl?: boolean;
}

export const deployHooksProjection: Projection = {
  name: 'deploy_hooks',
  version: 1,
  collections: [{ name: 'deploy_hooks', indexes: [{ fields: ['serviceId', 'createdAt'] }] }],
  handlers: handlersOf(
    on(DeployHookCreated, {
      collection: 'deploy_hooks',
      documentId: (e) => e.data.hookId,
      evolve: (_c, { data, recordedAt, metadata }): DeployHookDoc => ({
        id: data.hookId,
        serviceId: data.serviceId,
        name: data.name,
        secretCiphertext: data.secretCiphertext,
        rules: data.rules,
        status: 'active',
        createdAt: recordedAt,
        createdBy: metadata.actor.principalId,
        revokedAt: null,
        ...(data.unsignedUrl ? { unsignedUrl: true } : {}),
      }),
    }),
    on(DeployHookRevoked, {
      collection: 'deploy_hooks',
      documentId: (e) => e.data.hookId,
      evolve: (current: DeployHookDoc | null, { recordedAt }) =>
        current ? { ...current, status: 'revoked' as const, revokedAt: recordedAt } : null,
    }),
  ),
};
