import { describe, it } from '@jest/globals';
import { IdentityProviderConfigured, IdentityProviderRemoved } from '../src/events/sso.events.js';
import { identityProvidersProjection } from './identity-providers.projection.js';
import { at } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';

const settings = {
  providerId: 'corp',
  displayName: 'Corp',
  issuer: 'https://idp.example',
  clientId: 'slipway',
  sealedClientSecret: 'v2.sealed',
  allowedDomains: ['corp.example'],
  roleMapping: { claim: 'groups', rules: [], defaultRole: 'viewer' as const },
  trustProviderMfa: true,
  enabled: true,
};

describe('identity providers projection', () => {
  it('shows a configured provider without its secret, and forgets a removed one', () => {
    givenProjection(identityProvidersProjection)
      .given(IdentityProviderConfigured(settings))
      .then({
        identity_providers: {
          corp: {
            id: 'corp',
            displayName: 'Corp',
            issuer: 'https://idp.example',
            clientId: 'slipway',
            allowedDomains: ['corp.example'],
            roleMapping: { claim: 'groups', rules: [], defaultRole: 'viewer' },
            trustProviderMfa: true,
            enabled: true,
            configuredAt: at(0),
            configuredBy: null,
          },
        },
      });
    givenProjection(identityProvidersProjection)
      .given(IdentityProviderConfigured(settings), IdentityProviderRemoved({ providerId: 'corp' }))
      .then({ identity_providers: {} });
  });
});
