import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import type { NotificationChannelDoc } from '../../../projections/notification-channels.projection.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { errorForLog } from '../../common/log-text.js';
import { retryUntilDone } from '../../common/retry-until-done.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
  type Subscription,
} from '../../eventstore/event-store.port.js';
import {
  NotificationChannelCreated,
  NotificationChannelTestRequested,
  NotificationChannelUpdated,
} from '../../events/notifications.events.js';
import { ServiceGitSourceRemoved, ServiceGitSourceSet } from '../../events/git-sources.events.js';
import {
  PRIMARY_STORE,
  READ_STORE,
  type Doc,
  type ReadStore,
} from '../../readstore/read-store.port.js';
import { READ_MODELS, type ReadModels } from '../../storage/read-models.js';
import { subjectOf } from '../notification-subjects.js';
import {
  DELIVERIES,
  DELIVERIES_COLLECTION,
  OUTBOX_CHECKPOINTS,
  OUTBOX_COLLECTION,
  type DeliveryDoc,
} from './delivery-record.js';
import {
  COMMIT_STATUS_CHANNEL_PREFIX,
  COMMIT_STATUS_EVENTS,
  COMMIT_STATUS_SUBJECT,
  commitStatusOf,
} from './commit-status-deliveries.js';
import { DeliverySender } from './delivery-sender.js';
import { deploymentSummary, notificationPayload } from './notification-message.js';

const logger = new Logger('Notifications');
const CHANNEL_EVENTS = [NotificationChannelCreated.type, NotificationChannelUpdated.type];
const SOURCE_EVENTS = [ServiceGitSourceSet.type, ServiceGitSourceRemoved.type];
/** What differs between the deliveries of one event; the rest is the event's or a new one's. */
type NewDeliveryField = 'id' | 'channelId' | 'subject' | 'testId' | 'payload';

/** `notification_outbox`: the consumer's position, one document (id `deliveries`). */
export interface OutboxCheckpoint extends Doc {
  /** Global position of the last event the consumer handled. */
  position: number;
}

/**
 * The consumer that turns events into deliveries: it follows the event log from its stored
 * position (never inside a command), and for each event a channel is subscribed to writes one
 * pending delivery per channel together with its new position, in one primary-store transaction.
 * Re-handling an event writes nothing new. Sending is the DeliverySender's, apart, so a slow
 * channel never holds this consumer, and nothing here can delay or fail a deployment.
 */
@Injectable()
export class NotificationOutbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription: Subscription | null = null;
  private stopping = false;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PRIMARY_STORE) private readonly primary: ReadStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sender: DeliverySender,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.primary.ensureCollection(DELIVERIES_COLLECTION);
    await this.primary.ensureCollection(OUTBOX_COLLECTION);
    if (!this.config.notifications.sending) return;
    const checkpoint = await this.primary
      .collection<OutboxCheckpoint>(OUTBOX_CHECKPOINTS)
      .get('deliveries');
    const from = BigInt((checkpoint?.position ?? 0) + 1);
    this.subscription = this.events.subscribe(
      from,
      (event) => this.handle(event),
      (error) => logger.error('The notification consumer stopped', errorForLog(error)),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.subscription?.stop();
  }

  /** A failure (read models lagging past their timeout, a busy store) is retried, not skipped. */
  private handle(event: RecordedEvent): Promise<void> {
    return retryUntilDone(() => this.handleOnce(event), {
      stopping: () => this.stopping,
      delayMs: (attempt) => Math.min(1000 * attempt, 5_000),
      onFailure: (_error, attempt) =>
        logger.warn(
          `Notifications for event ${event.position} failed (attempt ${attempt}); retrying`,
        ),
    });
  }

  private async handleOnce(event: RecordedEvent): Promise<void> {
    const test = event.type === NotificationChannelTestRequested.type;
    const subject = test ? 'test' : subjectOf(event.type);
    const reportsStatus = COMMIT_STATUS_EVENTS.has(event.type);
    if (!subject && !reportsStatus) return;
    // The channels (the deployment, its service's source) as of this event, at least.
    await this.readModels.caughtUp(
      event.position,
      new Set([...CHANNEL_EVENTS, ...SOURCE_EVENTS, event.type]),
    );
    const channels = subject ? await this.channelsFor(event, subject) : [];
    const doc =
      typeof event.data.deploymentId === 'string'
        ? await this.reads.collection<DeploymentDoc>('deployments').get(event.data.deploymentId)
        : null;
    const deployment = deploymentSummary(doc);
    const status = reportsStatus ? await this.commitStatus(event.type, doc) : null;
    // A deployment event of no commit, or of a source that reports nothing: nothing to write.
    if (!subject && !status) return;
    const now = this.clock.now().toISOString();
    const position = Number(event.position);
    await this.primary.transaction(async (session) => {
      const deliveries = session.collection<DeliveryDoc>(DELIVERIES);
      /** A delivery of this event, pending and due now, unless written before. */
      const add = async (delivery: Pick<DeliveryDoc, NewDeliveryField>) => {
        if (await deliveries.get(delivery.id)) return;
        await deliveries.put({
          ...delivery,
          eventId: event.id,
          eventType: event.type,
          position,
          status: 'pending',
          attempts: 0,
          lastError: null,
          lastStatusCode: null,
          nextAttemptAt: now,
          createdAt: now,
          deliveredAt: null,
        });
      };
      // No subject, no channels: the loop runs only when the event has one.
      for (const channel of subject ? channels : []) {
        const id = `${event.id}:${channel.id}`;
        await add({
          id,
          channelId: channel.id,
          subject: subject ?? '',
          testId: test ? String(event.data.testId) : null,
          payload: notificationPayload(id, subject ?? '', event, deployment),
        });
      }
      if (status)
        await add({
          id: `${event.id}:commit-status`,
          channelId: `${COMMIT_STATUS_CHANNEL_PREFIX}${status.serviceId}`,
          subject: COMMIT_STATUS_SUBJECT,
          testId: null,
          payload: { ...status },
        });
      await session
        .collection<OutboxCheckpoint>(OUTBOX_CHECKPOINTS)
        .put({ id: 'deliveries', position });
    });
    if (channels.length > 0 || status) this.sender.wake();
  }

  /** The commit status a deployment event reports, when its service's source reports them. */
  private async commitStatus(eventType: string, doc: DeploymentDoc | null) {
    if (!doc?.snapshot.git) return null;
    const sourceServiceId = doc.snapshot.git.sourceServiceId ?? doc.serviceId;
    const service = await this.reads.collection<ServiceDoc>('services').get(sourceServiceId);
    return commitStatusOf(eventType, doc, service, this.config.publicUrl);
  }

  private async channelsFor(
    event: RecordedEvent,
    subject: string,
  ): Promise<NotificationChannelDoc[]> {
    const collection = this.reads.collection<NotificationChannelDoc>('notification_channels');
    if (subject === 'test') {
      const channel = await collection.get(String(event.data.channelId));
      return channel ? [channel] : [];
    }
    const page = await collection.find({ enabled: true }, { limit: 1000 });
    return page.items.filter(
      (c) =>
        c.createdPosition < Number(event.position) &&
        (c.subscriptions as string[]).includes(subject),
    );
  }
}
