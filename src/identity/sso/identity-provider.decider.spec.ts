import { describe, it } from '@jest/globals';
import {
  IdentityProviderConfigured,
  IdentityProviderRemoved,
  type IdentityProviderSettings,
} from '../../events/sso.events.js';
import { given } from '../../storage/testing/given.js';
import { identityProviderDecider as provider } from './identity-provider.decider.js';

const settings: Omit<IdentityProviderSettings, 'sealedClientSecret'> = {
  providerId: 'corp',
  displayName: 'Corp',
  issuer: 'https://idp.example',
  clientId: 'slipway',
  allowedDomains: ['corp.example'],
  roleMapping: { claim: 'groups', rules: [{ value: 'devs', role: 'operator' }], defaultRole: null },
  trustProviderMfa: false,
  enabled: true,
};
const configured = IdentityProviderConfigured({ ...settings, sealedClientSecret: 'sealed-1' });

describe('identity provider decider', () => {
  it('configures a new provider with its sealed secret', () => {
    given(provider)
      .when({ kind: 'configure', settings, sealedClientSecret: 'sealed-1' })
      .then(configured);
  });

  it('refuses a new provider without a secret', () => {
    given(provider)
      .when({ kind: 'configure', settings, sealedClientSecret: null })
      .thenRefused('CONFLICT', /client secret/);
  });

  it('keeps the secret when none is sent, and records nothing when nothing changed', () => {
    given(provider, configured)
      .when({ kind: 'configure', settings, sealedClientSecret: null })
      .thenNothing();
    given(provider, configured)
      .when({
        kind: 'configure',
        settings: { ...settings, enabled: false },
        sealedClientSecret: null,
      })
      .then(
        IdentityProviderConfigured({ ...settings, enabled: false, sealedClientSecret: 'sealed-1' }),
      );
  });

  it('refuses to keep the secret for another issuer; sent again, it goes with the issuer', () => {
    const elsewhere = { ...settings, issuer: 'https://attacker.example' };
    given(provider, configured)
      .when({ kind: 'configure', settings: elsewhere, sealedClientSecret: null })
      .thenRefused('CONFLICT', /give the client secret again/);
    given(provider, configured)
      .when({ kind: 'configure', settings: elsewhere, sealedClientSecret: 'sealed-1' })
      .then(IdentityProviderConfigured({ ...elsewhere, sealedClientSecret: 'sealed-1' }));
  });

  it('removes a provider once; after that it is unknown and needs its secret again', () => {
    const removed = IdentityProviderRemoved({ providerId: 'corp' });
    given(provider, configured).when({ kind: 'remove', providerId: 'corp' }).then(removed);
    given(provider, configured, removed)
      .when({ kind: 'remove', providerId: 'corp' })
      .thenRefused('NOT_FOUND');
    given(provider, configured, removed)
      .when({ kind: 'configure', settings, sealedClientSecret: null })
      .thenRefused('CONFLICT');
  });
});
