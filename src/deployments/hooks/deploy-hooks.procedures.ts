import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../../kernel/procedure.js';
import { EVERYONE, OPERATORS } from '../../kernel/roles.js';
import {
  CreateDeployWebhookHandler,
  CreateDeployWebhookInput,
  DeployWebhooksHandler,
  DeployWebhooksInput,
  RevokeDeployWebhookHandler,
  RevokeDeployWebhookInput,
} from './deploy-hook.handlers.js';

/**
 * Inbound deploy hooks. Creating one hands out a credential that deploys, so it takes a human
 * whose effective scopes hold both `service:write` and `deploy:start`.
 */
@Injectable()
export class DeployHookProcedures {
  constructor(
    private readonly createHandler: CreateDeployWebhookHandler,
    private readonly revokeHandler: RevokeDeployWebhookHandler,
    private readonly listHandler: DeployWebhooksHandler,
  ) {}

  @Procedure.command({
    name: 'createDeployWebhook',
    roles: OPERATORS,
    scopes: ['service:write', 'deploy:start'],
    input: CreateDeployWebhookInput,
    description:
      'Creates an inbound deploy hook for a service: `{serviceId, name, rules: [{source: "tag"|"image", pattern, image, allowRollback?}]}` → its URL (`POST /api/v1/hooks/{id}`) and signing secret, shown once.',
  })
  createDeployWebhook(input: CreateDeployWebhookInput, ctx: RequestContext) {
    return this.createHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'revokeDeployWebhook',
    roles: OPERATORS,
    scopes: ['service:write'],
    input: RevokeDeployWebhookInput,
    description: 'Revokes a deploy hook: its deliveries are refused from now on.',
  })
  revokeDeployWebhook(input: RevokeDeployWebhookInput, ctx: RequestContext) {
    return this.revokeHandler.execute(input, ctx);
  }

  @Procedure.read({
    name: 'deployWebhooks',
    roles: EVERYONE,
    scopes: ['service:read'],
    input: DeployWebhooksInput,
    description: 'Deploy hooks (URL, rules, status), newest first; never their secrets.',
  })
  deployWebhooks(input: DeployWebhooksInput) {
    return this.listHandler.execute(input);
  }
}
