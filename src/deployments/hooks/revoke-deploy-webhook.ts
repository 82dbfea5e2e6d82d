import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { notFound } from '../../common/app-error.js';
import { deployHookStream } from '../../events/notifications.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { deployHookDecider } from './deploy-hook.decider.js';
import { DeployHooks } from './deploy-hooks.js';

export class RevokeDeployWebhookInput {
  @IsUUID()
  hookId!: string;
}

export interface RevokedDeployHook {
  hookId: string;
  status: 'revoked';
}

export class RevokeDeployWebhook extends ProcedureCommand<
  RevokeDeployWebhookInput,
  RevokedDeployHook
> {}

/** A revoked hook stays revoked: revoking it again changes nothing. */
@Procedure.command(RevokeDeployWebhook, {
  name: 'revokeDeployWebhook',
  roles: OPERATORS,
  scopes: ['service:write'],
  input: RevokeDeployWebhookInput,
  description: 'Revokes a deploy hook: its deliveries are refused from now on.',
  project: { hook: 'hookId' },
})
export class RevokeDeployWebhookHandler implements ICommandHandler<RevokeDeployWebhook> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly hooks: DeployHooks,
  ) {}

  async execute({ input, ctx }: RevokeDeployWebhook): Promise<RevokedDeployHook> {
    const hook = await this.hooks.get(input.hookId);
    if (!hook) throw notFound('No such deploy hook');
    await this.runner.run(
      deployHookStream(hook.id),
      deployHookDecider,
      { kind: 'revoke', hookId: hook.id },
      ctx,
    );
    return { hookId: hook.id, status: 'revoked' };
  }
}
