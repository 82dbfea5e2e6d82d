import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  IsUUID,
  MaxLength,
  MinLength,
} from 'class-validator';
import type { NotificationChannelDoc } from '../../projections/notification-channels.projection.js';
import { notFound } from '../common/app-error.js';
import { DisplayName } from '../common/field-rules.js';
import { Omittable } from '../common/omittable.js';
import {
  notificationChannelStream,
  type ChannelKind,
  type NotificationSubject,
} from '../events/notifications.events.js';
import type { RequestContext } from '../kernel/request-context.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { checkTarget } from './channel-target.js';
import { NotificationTargetPolicy } from './target-policy.js';
import { notificationChannelDecider } from './notification-channel.decider.js';
import { NOTIFICATION_SUBJECTS } from './notification-subjects.js';

export const CHANNEL_KINDS: readonly ChannelKind[] = ['webhook', 'email', 'slack'];

export class CreateNotificationChannelInput {
  @DisplayName()
  name!: string;

  @IsIn(CHANNEL_KINDS)
  kind!: ChannelKind;

  /** The URL (webhook, slack) or the email address (email). Sealed; never shown again. */
  @IsString()
  @MinLength(3)
  @MaxLength(2048)
  target!: string;

  @IsArray()
  @ArrayMaxSize(NOTIFICATION_SUBJECTS.length)
  @IsIn(NOTIFICATION_SUBJECTS, { each: true })
  subscriptions!: NotificationSubject[];
}

export class UpdateNotificationChannelInput {
  @IsUUID()
  channelId!: string;

  @Omittable()
  @DisplayName()
  name?: string;

  @Omittable()
  @IsString()
  @MinLength(3)
  @MaxLength(2048)
  target?: string;

  @Omittable()
  @IsArray()
  @ArrayMaxSize(NOTIFICATION_SUBJECTS.length)
  @IsIn(NOTIFICATION_SUBJECTS, { each: true })
  subscriptions?: NotificationSubject[];

  @Omittable()
  @IsBoolean()
  enabled?: boolean;
}

export class ChannelIdInput {
  @IsUUID()
  channelId!: string;
}

export function channelView(doc: NotificationChannelDoc) {
  return {
    channelId: doc.id,
    name: doc.name,
    kind: doc.kind,
    target: doc.targetHint,
    subscriptions: doc.subscriptions,
    enabled: doc.enabled,
    createdAt: doc.createdAt,
    createdBy: doc.createdBy,
    updatedAt: doc.updatedAt,
  };
}

const unique = (subjects: NotificationSubject[]) => [...new Set(subjects)];

@Injectable()
export class NotificationChannels {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly policy: NotificationTargetPolicy,
  ) {}

  async get(channelId: string): Promise<NotificationChannelDoc> {
    const doc = await this.reads
      .collection<NotificationChannelDoc>('notification_channels')
      .get(channelId);
    if (!doc) throw notFound('No such notification channel');
    return doc;
  }

  /** A webhook channel's signing secret is returned here, once; the other kinds have none. */
  async create(input: CreateNotificationChannelInput, ctx: RequestContext) {
    const { hint } = checkTarget(input.kind, input.target);
    await this.policy.check(input.kind, input.target);
    const channelId = randomUUID();
    const secret =
      input.kind === 'webhook' ? `whsec_${randomBytes(32).toString('base64url')}` : null;
    await this.runner.run(
      notificationChannelStream(channelId),
      notificationChannelDecider,
      {
        kind: 'create',
        event: {
          channelId,
          name: input.name,
          kind: input.kind,
          targetCiphertext: this.box.seal(input.target),
          targetHint: hint,
          secretCiphertext: secret ? this.box.seal(secret) : null,
          subscriptions: unique(input.subscriptions),
        },
      },
      ctx,
    );
    return { ...channelView(await this.get(channelId)), secret };
  }

  async update(input: UpdateNotificationChannelInput, ctx: RequestContext) {
    const current = await this.get(input.channelId);
    const changes: Parameters<typeof notificationChannelDecider.decide>[0] & { kind: 'update' } = {
      kind: 'update',
      event: { channelId: current.id, changes: {} },
    };
    const c = changes.event.changes;
    if (input.name !== undefined && input.name !== current.name) c.name = input.name;
    if (input.target !== undefined) {
      c.targetHint = checkTarget(current.kind, input.target).hint;
      await this.policy.check(current.kind, input.target);
      c.targetCiphertext = this.box.seal(input.target);
    }
    if (input.subscriptions !== undefined) c.subscriptions = unique(input.subscriptions);
    if (input.enabled !== undefined && input.enabled !== current.enabled) c.enabled = input.enabled;
    await this.runner.run(
      notificationChannelStream(current.id),
      notificationChannelDecider,
      changes,
      ctx,
    );
    return channelView(await this.get(current.id));
  }

  /** Asks for a test message; the delivery consumer sends it (see `notificationDeliveries`). */
  async test(input: ChannelIdInput, ctx: RequestContext) {
    const current = await this.get(input.channelId);
    const testId = randomUUID();
    await this.runner.run(
      notificationChannelStream(current.id),
      notificationChannelDecider,
      { kind: 'test', channelId: current.id, testId },
      ctx,
    );
    return { channelId: current.id, testId, status: 'queued' as const };
  }

  async list() {
    const page = await this.reads
      .collection<NotificationChannelDoc>('notification_channels')
      .find({}, { sort: { createdAt: -1 }, limit: 200 });
    return { items: page.items.map(channelView) };
  }
}
