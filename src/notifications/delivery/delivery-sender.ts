import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { NotificationChannelDoc } from '../../../projections/notification-channels.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { PRIMARY_STORE, READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { ChannelSender, DeliveryError } from './channel-sender.js';
import {
  COMMIT_STATUS_CHANNEL_PREFIX,
  type CommitStatusPayload,
} from './commit-status-deliveries.js';
import { CommitStatusSender } from './commit-status-sender.js';
import { DELIVERIES, retryDelayMs, type DeliveryDoc } from './delivery-record.js';
import { SenderLoop } from './sender-loop.js';

/** The delivery's channel is gone or disabled: it fails at once, never retried. */
class ChannelGone extends Error {}
const POLL_MS = 250;
/** With several replicas, the one holding this lease sends; the others only record. */
const SENDER_LEASE = 'notification-sender';

/**
 * Sends pending deliveries whose time has come, at most `SLIPWAY_NOTIFICATION_CONCURRENCY` at
 * once, each bounded by `SLIPWAY_NOTIFICATION_TIMEOUT_MS`; a failure is retried after a doubling
 * delay until `SLIPWAY_NOTIFICATION_MAX_ATTEMPTS`, then the delivery is `failed`. Every attempt
 * updates the delivery's status, attempts, last error and next attempt. With several replicas
 * (`SLIPWAY_REPLICAS` > 1) one of them sends, the holder of a lease like a projection's; another
 * takes it over when the holder dies (the lease is kept in the primary store). A delivery in
 * flight when its sender dies may be sent again by the next one: receivers dedupe on
 * `X-Slipway-Delivery`.
 */
@Injectable()
export class DeliverySender implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly loop: SenderLoop;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly channels: ChannelSender,
    private readonly statuses: CommitStatusSender,
  ) {
    this.loop = new SenderLoop(primary, config.storage.replicas, SENDER_LEASE, 'Notifications');
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.notifications.sending) await this.loop.start(POLL_MS, () => this.startDue());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled(this.inFlight.values());
  }

  wake(): void {
    this.loop.wake();
  }

  private async startDue(): Promise<void> {
    const free = this.config.notifications.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const page = await this.primary
      .collection<DeliveryDoc>(DELIVERIES)
      .find(
        { status: 'pending', nextAttemptAt: { $lte: this.clock.now().toISOString() } },
        { sort: { nextAttemptAt: 1 }, limit: free + this.inFlight.size },
      );
    for (const doc of page.items) {
      if (this.inFlight.size >= this.config.notifications.concurrency) break;
      if (this.inFlight.has(doc.id)) continue;
      const attempt = this.attempt(doc).finally(() => {
        this.inFlight.delete(doc.id);
        this.loop.wake();
      });
      this.inFlight.set(doc.id, attempt);
    }
  }

  /** Sends on the delivery's channel: a notification channel, or a source's commit statuses. */
  private async send(doc: DeliveryDoc, nowMs: number): Promise<{ statusCode: number | null }> {
    if (doc.channelId.startsWith(COMMIT_STATUS_CHANNEL_PREFIX))
      return this.statuses.send(doc.payload as unknown as CommitStatusPayload);
    const channel = await this.reads
      .collection<NotificationChannelDoc>('notification_channels')
      .get(doc.channelId);
    if (!channel || (!channel.enabled && doc.subject !== 'test'))
      throw new ChannelGone('channel disabled');
    return this.channels.send(channel, doc.id, doc.payload, nowMs);
  }

  private async attempt(doc: DeliveryDoc): Promise<void> {
    const deliveries = this.primary.collection<DeliveryDoc>(DELIVERIES);
    const attempts = doc.attempts + 1;
    const now = this.clock.now();
    try {
      const { statusCode } = await this.send(doc, now.getTime());
      await deliveries.put({
        ...doc,
        status: 'delivered',
        attempts,
        lastStatusCode: statusCode,
        deliveredAt: this.clock.now().toISOString(),
      });
    } catch (error) {
      if (error instanceof ChannelGone) {
        await deliveries.put({ ...doc, status: 'failed', lastError: error.message, attempts });
        return;
      }
      const message =
        error instanceof DeliveryError
          ? error.message
          : error instanceof Error
            ? `${error.name}: ${error.message}`.slice(0, 300)
            : 'failed';
      const last = attempts >= this.config.notifications.maxAttempts;
      await deliveries.put({
        ...doc,
        status: last ? 'failed' : 'pending',
        attempts,
        lastError: message,
        lastStatusCode: error instanceof DeliveryError ? error.statusCode : null,
        nextAttemptAt: new Date(
          this.clock.now().getTime() +
            retryDelayMs(this.config.notifications.retryBaseMs, attempts),
        ).toISOString(),
      });
    }
  }
}
