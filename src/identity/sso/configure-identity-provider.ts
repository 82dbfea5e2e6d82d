import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { badRequest } from '../../common/app-error.js';
import { identityProviderStream, type RoleMapping } from '../../events/sso.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OWNERS } from '../../kernel/roles.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { identityProviderDecider } from './identity-provider.decider.js';
import { ConfigureIdentityProviderInput } from './identity-provider.input.js';

export interface ConfiguredProvider {
  providerId: string;
  changed: boolean;
}

export class ConfigureIdentityProvider extends ProcedureCommand<
  ConfigureIdentityProviderInput,
  ConfiguredProvider
> {}

function roleMappingOf(input: ConfigureIdentityProviderInput): RoleMapping {
  const rules = input.roleRules ?? [];
  if (rules.length > 0 && input.roleClaim === undefined) {
    throw badRequest('roleRules need the roleClaim they match', [
      { path: 'roleClaim', message: 'required when roleRules are given' },
    ]);
  }
  return {
    claim: input.roleClaim ?? null,
    rules: rules.map((r) => ({ value: r.value, role: r.role })),
    defaultRole: input.defaultRole ?? null,
  };
}

@Procedure.command(ConfigureIdentityProvider, {
  name: 'configureIdentityProvider',
  roles: OWNERS,
  scopes: ['security:manage'],
  input: ConfigureIdentityProviderInput,
  description:
    'Adds or changes an OpenID Connect identity provider: issuer, client, allowed email domains, claim-to-role mapping. The client secret is stored sealed and never returned.',
})
export class ConfigureIdentityProviderHandler implements ICommandHandler<ConfigureIdentityProvider> {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute({ input, ctx }: ConfigureIdentityProvider): Promise<ConfiguredProvider> {
    const stream = identityProviderStream(input.providerId);
    const current = (await this.runner.load(stream, identityProviderDecider)).settings;
    const secret = input.clientSecret;
    const sealedClientSecret =
      secret === undefined
        ? null
        : current && this.box.open(current.sealedClientSecret) === secret
          ? current.sealedClientSecret
          : this.box.seal(secret);
    const decision = await this.runner.run(
      stream,
      identityProviderDecider,
      {
        kind: 'configure',
        settings: {
          providerId: input.providerId,
          displayName: input.displayName,
          issuer: input.issuer,
          clientId: input.clientId,
          allowedDomains: [...new Set(input.allowedDomains ?? [])].sort(),
          roleMapping: roleMappingOf(input),
          trustProviderMfa: input.trustProviderMfa ?? false,
          enabled: input.enabled ?? true,
        },
        sealedClientSecret,
      },
      ctx,
    );
    return { providerId: input.providerId, changed: decision.events.length > 0 };
  }
}
