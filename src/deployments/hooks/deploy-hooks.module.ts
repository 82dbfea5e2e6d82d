import { Module } from '@nestjs/common';
import { DeploymentsModule } from '../deployments.module.js';
import { CreateDeployWebhookHandler } from './create-deploy-webhook.js';
import { DeployHooks } from './deploy-hooks.js';
import { DeployWebhooksHandler } from './deploy-webhooks.js';
import { RevokeDeployWebhookHandler } from './revoke-deploy-webhook.js';
import { ReceiveDeployHookHandler } from './receive-deploy-hook.handler.js';

/** Inbound deploy hooks: their procedures and the delivery handler the REST route calls. */
@Module({
  imports: [DeploymentsModule],
  providers: [
    DeployHooks,
    CreateDeployWebhookHandler,
    RevokeDeployWebhookHandler,
    DeployWebhooksHandler,
    ReceiveDeployHookHandler,
  ],
  exports: [ReceiveDeployHookHandler],
})
export class DeployHooksModule {}
