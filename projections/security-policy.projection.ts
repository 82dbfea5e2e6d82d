import { MfaPolicyChanged } from '../src/events/security.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/** `security_policy`: one document `{id: "team", policy, setAt, setBy}`; absent means optional. */
export interface SecurityPolicyDoc extends Doc {
  policy: 'optional' | 'privileged' | 'all';
  setAt: string;
  setBy: string | null;
}

export const securityPolicyProjection: Projection = {
  name: 'security_policy',
  version: 1,
  collections: [{ name: 'security_policy' }],
  handlers: handlersOf(
    on<EventDataOf<typeof MfaPolicyChanged>, SecurityPolicyDoc>(MfaPolicyChanged, {
      collection: 'security_policy',
      documentId: () => 'team',
      evolve: (_c, { data, metadata, recordedAt }) => ({
        id: 'team',
        policy: data.policy,
        setAt: recordedAt,
        setBy: metadata.actor.principalId,
      }),
    }),
  ),
};
