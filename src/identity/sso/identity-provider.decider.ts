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
       * The sealed secret (newly sealed, or the configured one when the secret sent is the one
       * configured: sealing the same secret twice differs), or null when it was left out.
       */
      sealedClientSecret: string | null;
    }
  | { kind: 'remove'; providerId: string };

const sameSettings = (a: object, b: object) => isDeepStrictEqual(a, b);

/**
 * Stream `identity-provider-<id>`: one provider, configured whole each time. A new provider needs
 * a client secret; configuring what is already configured records nothing; removing forgets it
 * (configuring the same id again starts afresh and needs the secret again). A secret left out is
 * kept only while the issuer stays: it is sent as it is to the issuer's token endpoint, so
 * sending it to another issuer takes someone who knows it.
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
    if (
      command.sealedClientSecret === null &&
      current &&
      current.issuer !== command.settings.issuer
    ) {
      throw conflict(
        'The issuer changes: give the client secret again; a configured secret goes only to the issuer it was given for',
        { field: 'clientSecret' },
      );
    }
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
