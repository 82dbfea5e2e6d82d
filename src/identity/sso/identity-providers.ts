import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { IdentityProviderDoc } from '../../../projections/identity-providers.projection.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { SsoProtocol } from './sso-protocol.js';

export type IdentityProviderView = Pick<
  IdentityProviderDoc,
  | 'displayName'
  | 'issuer'
  | 'clientId'
  | 'allowedDomains'
  | 'roleMapping'
  | 'trustProviderMfa'
  | 'enabled'
  | 'configuredAt'
  | 'configuredBy'
> & { providerId: string };

export class IdentityProviders extends ProcedureQuery<undefined, IdentityProviderList> {}

export interface IdentityProviderList {
  /** The address to register at each provider as the client's redirect URI. */
  redirectUri: string;
  providers: IdentityProviderView[];
}

/** Providers are few (one per identity system a team uses): the list is not paged. */
const MAX_PROVIDERS = 200;

@Procedure.read(IdentityProviders, {
  name: 'identityProviders',
  roles: ADMINS,
  scopes: ['members:read'],
  description:
    'The configured OpenID Connect identity providers with their domains and role mapping (never the client secret).',
})
export class IdentityProvidersHandler implements IQueryHandler<IdentityProviders> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly protocol: SsoProtocol,
  ) {}

  async execute(): Promise<IdentityProviderList> {
    const { items } = await this.reads
      .collection<IdentityProviderDoc>('identity_providers')
      .find({}, { sort: { id: 1 }, limit: MAX_PROVIDERS });
    return {
      redirectUri: this.protocol.redirectUri,
      providers: items.map((d) => ({
        providerId: d.id,
        displayName: d.displayName,
        issuer: d.issuer,
        clientId: d.clientId,
        allowedDomains: d.allowedDomains,
        roleMapping: d.roleMapping,
        trustProviderMfa: d.trustProviderMfa,
        enabled: d.enabled,
        configuredAt: d.configuredAt,
        configuredBy: d.configuredBy,
      })),
    };
  }
}
