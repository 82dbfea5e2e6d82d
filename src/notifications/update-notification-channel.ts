import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
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
import { DisplayName } from '../common/field-rules.js';
import { Omittable } from '../common/omittable.js';
import {
  notificationChannelStream,
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

export class UpdateNotificationChannel extends ProcedureCommand<
  UpdateNotificationChannelInput,
  ChannelView
> {}

type Update = Parameters<typeof notificationChannelDecider.decide>[0] & { kind: 'update' };

@Procedure.command(UpdateNotificationChannel, {
  name: 'updateNotificationChannel',
  roles: ADMINS,
  scopes: ['notifications:manage'],
  input: UpdateNotificationChannelInput,
  description: 'Changes a channel: `{channelId, name?, target?, subscriptions?, enabled?}`.',
})
export class UpdateNotificationChannelHandler implements ICommandHandler<UpdateNotificationChannel> {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly policy: NotificationTargetPolicy,
  ) {}

  async execute({ input, ctx }: UpdateNotificationChannel): Promise<ChannelView> {
    const current = await findChannel(this.reads, input.channelId);
    const changes: Update = { kind: 'update', event: { channelId: current.id, changes: {} } };
    const c = changes.event.changes;
    if (input.name !== undefined && input.name !== current.name) c.name = input.name;
    if (input.target !== undefined) {
      c.targetHint = checkTarget(current.kind, input.target).hint;
      await this.policy.check(current.kind, input.target);
      c.targetCiphertext = this.box.seal(input.target);
    }
    if (input.subscriptions !== undefined) c.subscriptions = uniqueSubjects(input.subscriptions);
    if (input.enabled !== undefined && input.enabled !== current.enabled) c.enabled = input.enabled;
    await this.runner.run(
      notificationChannelStream(current.id),
      notificationChannelDecider,
      changes,
      ctx,
    );
    return channelView(await findChannel(this.reads, current.id));
  }
}
