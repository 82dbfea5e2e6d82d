import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsBoolean } from 'class-validator';
import type { IdentityProviderDoc } from '../../projections/identity-providers.projection.js';
import { TEAM_SECURITY_STREAM } from '../events/security.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { OWNERS } from '../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { ssoPolicyDecider } from './sso-policy.decider.js';

export class UpdateSsoPolicyInput {
  @IsBoolean()
  required!: boolean;
}

export class UpdateSsoPolicy extends ProcedureCommand<
  UpdateSsoPolicyInput,
  { required: boolean; changed: boolean }
> {}

@Procedure.command(UpdateSsoPolicy, {
  name: 'updateSsoPolicy',
  roles: OWNERS,
  scopes: ['security:manage'],
  input: UpdateSsoPolicyInput,
  description:
    'Requires (or stops requiring) humans to sign in through an identity provider. Owners keep password and TOTP as break-glass, audited and notified.',
})
export class UpdateSsoPolicyHandler implements ICommandHandler<UpdateSsoPolicy> {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async execute({ input, ctx }: UpdateSsoPolicy) {
    // A guard against locking everyone out, not an invariant: owners keep break-glass anyway.
    const enabledProviders = await this.reads
      .collection<IdentityProviderDoc>('identity_providers')
      .count({ enabled: true });
    const decision = await this.runner.run(
      TEAM_SECURITY_STREAM,
      ssoPolicyDecider,
      { required: input.required, enabledProviders },
      ctx,
    );
    return { required: decision.state.required, changed: decision.events.length > 0 };
  }
}
