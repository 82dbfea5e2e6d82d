import { randomBytes, randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { DisplayName } from '../common/field-rules.js';
import {
  notificationChannelStream,
  type ChannelKind,
  type NotificationSubject,
} from '../events/notifications.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { checkTarget } from './channel-target.js';
import { channelView, findChannel, uniqueSubjects, type ChannelView } from './channel-view.js';
import { notificationChannelDecider } from './notification-channel.decider.js';
import { NOTIFICATION_SUBJECTS } from './notification-subjects.js';
import { NotificationTargetPolicy } from './target-policy.js';

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

/** `secret`: a webhook channel's signing secret, answered here once; the other kinds have none. */
export class CreateNotificationChannel extends ProcedureCommand<
  CreateNotificationChannelInput,
  ChannelView & { secret: string | null }
> {}

/** Notification channels are for owners and admins: a channel's target receives deployment news. */
@Procedure.command(CreateNotificationChannel, {
  name: 'createNotificationChannel',
  roles: ADMINS,
  scopes: ['notifications:manage'],
  input: CreateNotificationChannelInput,
  description:
    'Creates a channel: `{name, kind: "webhook"|"email"|"slack", target (URL or email), subscriptions}`; a webhook channel answers its signing `secret`, shown once.',
})
export class CreateNotificationChannelHandler implements ICommandHandler<CreateNotificationChannel> {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly policy: NotificationTargetPolicy,
  ) {}

  async execute({ input, ctx }: CreateNotificationChannel) {
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
          subscriptions: uniqueSubjects(input.subscriptions),
        },
      },
      ctx,
    );
    return { ...channelView(await findChannel(this.reads, channelId)), secret };
  }
}
