import { Module } from '@nestjs/common';
import { DeploymentsModule } from '../deployments.module.js';
import {
  CreateDeployWebhookHandler,
  DeployHooks,
  DeployWebhooksHandler,
  RevokeDeployWebhookHandler,
} from './deploy-hook.handlers.js';
import { DeployHookProcedures } from './deploy-hooks.procedures.js';
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
    DeployHookProcedures,
  ],
  exports: [ReceiveDeployHookHandler],
})
export class DeployHooksModule {}
