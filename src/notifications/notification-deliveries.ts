import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsIn, IsUUID } from 'class-validator';
import { PageCursor, PageLimit } from '../common/field-rules.js';
import { Omittable } from '../common/omittable.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureQuery } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { readPage, whereGiven } from '../readstore/read-page.js';
import { PRIMARY_STORE, READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { findChannel } from './channel-view.js';
import { DELIVERIES, type DeliveryDoc } from './delivery/delivery-record.js';

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

/** A delivery as `notificationDeliveries` answers it (without its payload). */
export interface DeliveryView {
  deliveryId: string;
  channelId: string;
  subject: string;
  eventType: string;
  eventId: string;
  testId: string | null;
  status: DeliveryDoc['status'];
  attempts: number;
  lastError: string | null;
  lastStatusCode: number | null;
  /** When the next attempt is due; null once delivered or failed. */
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export class NotificationDeliveries extends ProcedureQuery<
  NotificationDeliveriesInput,
  { items: DeliveryView[]; nextCursor: string | null }
> {}

/** Deliveries newest first, with their status, attempts and last error. */
@Procedure.read(NotificationDeliveries, {
  name: 'notificationDeliveries',
  roles: ADMINS,
  scopes: ['notifications:read'],
  input: NotificationDeliveriesInput,
  description:
    'Deliveries newest first (`channelId?`, `status?`, `limit`, `cursor`): status, attempts, last error, next attempt.',
})
export class NotificationDeliveriesHandler implements IQueryHandler<NotificationDeliveries> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
  ) {}

  async execute({
    input,
  }: NotificationDeliveries): Promise<{ items: DeliveryView[]; nextCursor: string | null }> {
    if (input.channelId) await findChannel(this.reads, input.channelId);
    const filter = whereGiven({ channelId: input.channelId, status: input.status });
    return readPage(
      this.primary.collection<DeliveryDoc>(DELIVERIES),
      { filter, sort: { createdAt: -1 }, defaultLimit: 20 },
      input,
      (d): DeliveryView => ({
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
      }),
    );
  }
}
