import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { ConfigureDrainHandler } from './configure-drain.js';
import { DrainBatches } from './delivery/drain-batch.js';
import { DrainSenders } from './delivery/drain-senders.js';
import { DrainShipper } from './delivery/drain-shipper.js';
import { DrainsHandler } from './drains.js';
import { RemoveDrainHandler } from './remove-drain.js';

/**
 * Drains: the audit trail and deployment output streamed to the team's own tools. The shipper
 * runs in the API process (not in `worker.js`), like the notification sender.
 */
@Module({
  imports: [AuditModule, DeploymentsModule, NotificationsModule],
  providers: [
    ConfigureDrainHandler,
    RemoveDrainHandler,
    DrainsHandler,
    DrainBatches,
    DrainSenders,
    DrainShipper,
  ],
})
export class DrainsModule {}
