import { IdentityProviderConfigured, IdentityProviderRemoved } from '../src/events/sso.events.js';
import type { RoleMapping } from '../src/events/sso.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `identity_providers`: `{id (the provider id), displayName, issuer, clientId, allowedDomains,
 * roleMapping {claim, rules [{value, role}], defaultRole}, trustProviderMfa, enabled,
 * configuredAt, configuredBy}`. Never the client secret. A removed provider has no document.
 */
export interface IdentityProviderDoc extends Doc {
  displayName: string;
  issuer: string;
  clientId: string;
  allowedDomains: string[];
  roleMapping: RoleMapping;
  trustProviderMfa: boolean;
  enabled: boolean;
  configuredAt: string;
  configuredBy: string | null;
}

const byProvider = (e: { data: { providerId: string } }) => e.data.providerId;

export const identityProvidersProjection: Projection = {
  name: 'identity_providers',
  version: 1,
  collections: [{ name: 'identity_providers' }],
  handlers: handlersOf(
    on<EventDataOf<typeof IdentityProviderConfigured>, IdentityProviderDoc>(
      IdentityProviderConfigured,
      {
        collection: 'identity_providers',
        documentId: byProvider,
        evolve: (_c, { data, metadata, recordedAt }) => ({
          id: data.providerId,
          displayName: data.displayName,
          issuer: data.issuer,
          clientId: data.clientId,
          allowedDomains: data.allowedDomains,
          roleMapping: data.roleMapping,
          trustProviderMfa: data.trustProviderMfa,
          enabled: data.enabled,
          configuredAt: recordedAt,
          configuredBy: metadata.actor.principalId,
        }),
      },
    ),
    on<EventDataOf<typeof IdentityProviderRemoved>, IdentityProviderDoc>(IdentityProviderRemoved, {
      collection: 'identity_providers',
      documentId: byProvider,
      evolve: () => null,
    }),
  ),
};
