import { identityProviderStream } from '../../events/sso.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OWNERS } from '../../kernel/roles.js';
import { decides } from '../../storage/deciding-handler.js';
import { identityProviderDecider } from './identity-provider.decider.js';
import { ProviderIdInput } from './identity-provider.input.js';

export class RemoveIdentityProvider extends ProcedureCommand<
  ProviderIdInput,
  { providerId: string; removed: true }
> {}

@Procedure.command(RemoveIdentityProvider, {
  name: 'removeIdentityProvider',
  roles: OWNERS,
  scopes: ['security:manage'],
  input: ProviderIdInput,
  description:
    'Removes an identity provider: sign-ins through it stop; sessions it started run until they end.',
})
export class RemoveIdentityProviderHandler extends decides(identityProviderDecider).removes(
  RemoveIdentityProvider,
  'providerId',
  identityProviderStream,
) {}
