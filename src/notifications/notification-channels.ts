import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { NotificationChannelDoc } from '../../projections/notification-channels.projection.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureQuery } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { channelView, type ChannelView } from './channel-view.js';

export class NotificationChannels extends ProcedureQuery<undefined, { items: ChannelView[] }> {}

/** Newest first, at most 200 (not paged). */
@Procedure.read(NotificationChannels, {
  name: 'notificationChannels',
  roles: ADMINS,
  readModelsOnly: true,
  scopes: ['notifications:read'],
  description: 'Notification channels: kind, masked target, subscriptions, enabled.',
})
export class NotificationChannelsHandler implements IQueryHandler<NotificationChannels> {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async execute(): Promise<{ items: ChannelView[] }> {
    const page = await this.reads
      .collection<NotificationChannelDoc>('notification_channels')
      .find({}, { sort: { createdAt: -1 }, limit: 200 });
    return { items: page.items.map(channelView) };
  }
}
