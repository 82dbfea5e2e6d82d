import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../kernel/procedure.js';
import { ADMINS } from '../kernel/roles.js';
import {
  ChannelIdInput,
  CreateNotificationChannelInput,
  NotificationChannels,
  UpdateNotificationChannelInput,
} from './notification-channel.handlers.js';
import {
  NotificationDeliveriesHandler,
  NotificationDeliveriesInput,
} from './notification-deliveries.query.js';

/** Notification channels: owners and admins (a channel's target receives deployment news). */
@Injectable()
export class NotificationProcedures {
  constructor(
    private readonly channels: NotificationChannels,
    private readonly deliveries: NotificationDeliveriesHandler,
  ) {}

  @Procedure.command({
    name: 'createNotificationChannel',
    roles: ADMINS,
    scopes: ['notifications:manage'],
    input: CreateNotificationChannelInput,
    description:
      'Creates a channel: `{name, kind: "webhook"|"email"|"slack", target (URL or email), subscriptions}`; a webhook channel answers its signing `secret`, shown once.',
  })
  createNotificationChannel(input: CreateNotificationChannelInput, ctx: RequestContext) {
    return this.channels.create(input, ctx);
  }

  @Procedure.command({
    name: 'updateNotificationChannel',
    roles: ADMINS,
    scopes: ['notifications:manage'],
    input: UpdateNotificationChannelInput,
    description: 'Changes a channel: `{channelId, name?, target?, subscriptions?, enabled?}`.',
  })
  updateNotificationChannel(input: UpdateNotificationChannelInput, ctx: RequestContext) {
    return this.channels.update(input, ctx);
  }

  @Procedure.command({
    name: 'testNotificationChannel',
    roles: ADMINS,
    scopes: ['notifications:manage'],
    input: ChannelIdInput,
    description:
      'Queues a test message on a channel: `{channelId}` → `{testId}`; its delivery shows in `notificationDeliveries`.',
  })
  testNotificationChannel(input: ChannelIdInput, ctx: RequestContext) {
    return this.channels.test(input, ctx);
  }

  @Procedure.read({
    name: 'notificationChannels',
    roles: ADMINS,
    scopes: ['notifications:read'],
    description: 'Notification channels: kind, masked target, subscriptions, enabled.',
  })
  notificationChannels() {
    return this.channels.list();
  }

  @Procedure.read({
    name: 'notificationDeliveries',
    roles: ADMINS,
    scopes: ['notifications:read'],
    input: NotificationDeliveriesInput,
    description:
      'Deliveries newest first (`channelId?`, `status?`, `limit`, `cursor`): status, attempts, last error, next attempt.',
  })
  notificationDeliveries(input: NotificationDeliveriesInput) {
    return this.deliveries.execute(input);
  }
}
