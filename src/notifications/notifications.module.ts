import { Module } from '@nestjs/common';
import { ChannelSender } from './delivery/channel-sender.js';
import { DeliverySender } from './delivery/delivery-sender.js';
import { NotificationOutbox } from './delivery/notification-outbox.js';
import { NotificationChannels } from './notification-channel.handlers.js';
import { NotificationDeliveriesHandler } from './notification-deliveries.query.js';
import { NotificationProcedures } from './notifications.procedures.js';
import { NotificationTargetPolicy } from './target-policy.js';
import { TokenExpiryScan } from './token-expiry-scan.js';

/**
 * Notification channels and their deliveries. The consumer and the sender run in the API
 * process (not in `worker.js`): one process sends, so a delivery is not sent twice.
 */
@Module({
  providers: [
    NotificationChannels,
    NotificationDeliveriesHandler,
    NotificationProcedures,
    ChannelSender,
    DeliverySender,
    NotificationOutbox,
    TokenExpiryScan,
    NotificationTargetPolicy,
  ],
  exports: [ChannelSender, DeliverySender, TokenExpiryScan, NotificationTargetPolicy],
})
export class NotificationsModule {}
