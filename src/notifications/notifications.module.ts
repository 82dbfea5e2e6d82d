import { Module } from '@nestjs/common';
import { ChannelSender } from './delivery/channel-sender.js';
import { CommitStatusSender } from './delivery/commit-status-sender.js';
import { DeliverySender } from './delivery/delivery-sender.js';
import { NotificationOutbox } from './delivery/notification-outbox.js';
import { CreateNotificationChannelHandler } from './create-notification-channel.js';
import { NotificationChannelsHandler } from './notification-channels.js';
import { NotificationDeliveriesHandler } from './notification-deliveries.js';
import { TestNotificationChannelHandler } from './test-notification-channel.js';
import { UpdateNotificationChannelHandler } from './update-notification-channel.js';
import { NotificationTargetPolicy } from './target-policy.js';
import { TokenExpiryScan } from './token-expiry-scan.js';

/**
 * Notification channels and their deliveries. The consumer and the sender run in the API
 * process (not in `worker.js`): one process sends, so a delivery is not sent twice.
 */
@Module({
  providers: [
    CreateNotificationChannelHandler,
    UpdateNotificationChannelHandler,
    TestNotificationChannelHandler,
    NotificationChannelsHandler,
    NotificationDeliveriesHandler,
    ChannelSender,
    CommitStatusSender,
    DeliverySender,
    NotificationOutbox,
    TokenExpiryScan,
    NotificationTargetPolicy,
  ],
  exports: [ChannelSender, DeliverySender, TokenExpiryScan, NotificationTargetPolicy],
})
export class NotificationsModule {}
