import { MfaPolicyChanged, SsoPolicyChanged } from '../src/events/security.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `security_policy`: one document `{id: "team", policy, setAt, setBy, ssoRequired, ssoSetAt,
 * ssoSetBy}`; absent means MFA optional and single sign-on not required.
 */
export interface SecurityPolicyDoc extends Doc {
  policy: 'optional' | 'privileged' | 'all';
  setAt: string | null;
  setBy: string | null;
  ssoRequired: boolean;
  ssoSetAt: string | null;
  ssoSetBy: string | null;
}

const EMPTY: SecurityPolicyDoc = {
  id: 'team',
  policy: 'optional',
  setAt: null,
  setBy: null,
  ssoRequired: false,
  ssoSetAt: null,
  ssoSetBy: null,
};

export const securityPolicyProjection: Projection = {
  name: 'security_policy',
  version: 2,
  collections: [{ name: 'security_policy' }],
  handlers: handlersOf(
    on<EventDataOf<typeof MfaPolicyChanged>, SecurityPolicyDoc>(MfaPolicyChanged, {
      collection: 'security_policy',
      documentId: () => 'team',
      evolve: (c, { data, metadata, recordedAt }) => ({
        ...(c ?? EMPTY),
        policy: data.policy,
        setAt: recordedAt,
        setBy: metadata.actor.principalId,
      }),
    }),
    on<EventDataOf<typeof SsoPolicyChanged>, SecurityPolicyDoc>(SsoPolicyChanged, {
      collection: 'security_policy',
      documentId: () => 'team',
      evolve: (c, { data, metadata, recordedAt }) => ({
        ...(c ?? EMPTY),
        ssoRequired: data.required,
        ssoSetAt: recordedAt,
        ssoSetBy: metadata.actor.principalId,
      }),
    }),
  ),
};
