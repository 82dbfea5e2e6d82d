import { isDeepStrictEqual } from 'node:util';
import { conflict, notFound } from '../../common/app-error.js';
import type { Decider, EventLike } from '../../storage/decider.js';
import {
  IdentityProviderConfigured,
  IdentityProviderRemoved,
  type IdentityProviderSettings,
} from '../../events/sso.events.js';

export interface IdentityProviderState {
  settings: IdentityProviderSettings | null;
}

/** What an owner sends: the secret may be left out when the provider already has one. */
export type ProviderCommand =
  | {
      kind: 'configure';
      settings: Omit<IdentityProviderSettings, 'sealedClientSecret'>;
      /**
       * A newly sealed secret, or null to keep the one configured (the handler passes null when
       * the secret sent is the one configured: sealing the same secret twice differs).
       */
      sealedClientSecret: string | null;
    }
  | { kind: 'remove'; providerId: string };

const sameSettings = (a: object, b: object) => isDeepStrictEqual(a, b);

/**
 * Stream `identity-provider-<id>`: one provider, configured whole each time. A new provider needs
 * a client secret; configuring what is already configured records nothing; removing forgets it
 * (configuring the same id again starts afresh and needs the secret again).
 */
export const identityProviderDecider: Decider<IdentityProviderState, ProviderCommand> = {
  initialState: () => ({ settings: null }),

  evolve(state, event: EventLike) {
    if (event.type === IdentityProviderConfigured.type) {
      return { settings: IdentityProviderConfigured.dataOf(event) };
    }
    if (event.type === IdentityProviderRemoved.type) return { settings: null };
    return state;
  },

  decide(command, state) {
    if (command.kind === 'remove') {
      if (!state.settings) throw notFound('No such identity provider');
      return [IdentityProviderRemoved({ providerId: command.providerId })];
    }
    const current = state.settings;
    const sealedClientSecret = command.sealedClientSecret ?? current?.sealedClientSecret;
    if (!sealedClientSecret) {
      throw conflict('A new identity provider needs its client secret', {
        field: 'clientSecret',
      });
    }
    const next = { ...command.settings, sealedClientSecret };
    if (current && sameSettings(current, next)) return [];
    return [IdentityProviderConfigured(next)];
  },
};
