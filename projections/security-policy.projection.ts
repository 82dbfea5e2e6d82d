import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

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
  handlers: {
    MfaPolicyChanged: [
      {
        collection: 'security_policy',
        documentId: () => 'team',
        evolve: (_c, e): SecurityPolicyDoc => ({
          id: 'team',
          policy: e.data.policy as SecurityPolicyDoc['policy'],
          setAt: e.recordedAt,
          setBy: e.metadata.actor.principalId,
        }),
      },
    ],
  },
};
