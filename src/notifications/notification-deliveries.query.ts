import { Inject, Injectable } from '@nestjs/common';
import { IsIn, IsUUID } from 'class-validator';
import { PageCursor, PageLimit } from '../common/field-rules.js';
import { Omittable } from '../common/omittable.js';
import { PRIMARY_STORE, type Filter, type ReadStore } from '../readstore/read-store.port.js';
import { DELIVERIES, type DeliveryDoc } from './delivery/delivery-record.js';
import { NotificationChannels } from './notification-channel.handlers.js';

export class NotificationDeliveriesInput {
  @Omittable()
  @IsUUID()
  channelId?: string;

  @Omittable()
  @IsIn(['pending', 'delivered', 'failed'])
  status?: 'pending' | 'delivered' | 'failed';

  @PageLimit(100)
  limit?: number;

  @PageCursor()
  cursor?: string;
}

/** Deliveries newest first, with their status, attempts and last error. */
@Injectable()
export class NotificationDeliveriesHandler {
  constructor(
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
    private readonly channels: NotificationChannels,
  ) {}

  async execute(input: NotificationDeliveriesInput) {
    const filter: Filter = {};
    if (input.channelId) {
      await this.channels.get(input.channelId);
      filter.channelId = input.channelId;
    }
    if (input.status) filter.status = input.status;
    const page = await this.primary
      .collection<DeliveryDoc>(DELIVERIES)
      .find(filter, { sort: { createdAt: -1 }, limit: input.limit ?? 20, cursor: input.cursor });
    return {
      items: page.items.map((d) => ({
        deliveryId: d.id,
        channelId: d.channelId,
        subject: d.subject,
        eventType: d.eventType,
        eventId: d.eventId,
        testId: d.testId,
        status: d.status,
        attempts: d.attempts,
        lastError: d.lastError,
        lastStatusCode: d.lastStatusCode,
        nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
        createdAt: d.createdAt,
        deliveredAt: d.deliveredAt,
      })),
      nextCursor: page.nextCursor,
    };
  }
}
