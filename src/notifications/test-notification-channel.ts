import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import { notificationChannelStream } from '../events/notifications.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { findChannel } from './channel-view.js';
import { notificationChannelDecider } from './notification-channel.decider.js';

export class ChannelIdInput {
  @IsUUID()
  channelId!: string;
}

export class TestNotificationChannel extends ProcedureCommand<
  ChannelIdInput,
  { channelId: string; testId: string; status: 'queued' }
> {}

/** Asks for a test message; the delivery consumer sends it (see `notificationDeliveries`). */
@Procedure.command(TestNotificationChannel, {
  name: 'testNotificationChannel',
  roles: ADMINS,
  scopes: ['notifications:manage'],
  input: ChannelIdInput,
  description:
    'Queues a test message on a channel: `{channelId}` → `{testId}`; its delivery shows in `notificationDeliveries`.',
})
export class TestNotificationChannelHandler implements ICommandHandler<TestNotificationChannel> {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async execute({ input, ctx }: TestNotificationChannel) {
    const current = await findChannel(this.reads, input.channelId);
    const testId = randomUUID();
    await this.runner.run(
      notificationChannelStream(current.id),
      notificationChannelDecider,
      { kind: 'test', channelId: current.id, testId },
      ctx,
    );
    return { channelId: current.id, testId, status: 'queued' as const };
  }
}
