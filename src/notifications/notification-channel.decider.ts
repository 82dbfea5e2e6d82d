import { conflict, notFound } from '../common/app-error.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import type { Decider } from '../storage/decider.js';
import {
  NotificationChannelCreated,
  NotificationChannelTestRequested,
  NotificationChannelUpdated,
} from '../events/notifications.events.js';

export interface ChannelState {
  channelId: string | null;
  enabled: boolean;
}

type Created = Parameters<typeof NotificationChannelCreated>[0];
type Updated = Parameters<typeof NotificationChannelUpdated>[0];

export type ChannelCommand =
  | { kind: 'create'; event: Created }
  | { kind: 'update'; event: Updated }
  | { kind: 'test'; channelId: string; testId: string };

/** One channel on its own stream: created once, then changed and tested while it exists. */
export const notificationChannelDecider: Decider<ChannelState, ChannelCommand> = {
  initialState: () => ({ channelId: null, enabled: true }),
  evolve(state, event) {
    if (event.type === NotificationChannelCreated.type)
      return { channelId: NotificationChannelCreated.dataOf(event).channelId, enabled: true };
    if (event.type === NotificationChannelUpdated.type) {
      const { enabled } = NotificationChannelUpdated.dataOf(event).changes;
      return enabled === undefined ? state : { ...state, enabled };
    }
    return state;
  },
  decide(command, state): PendingEvent[] {
    if (command.kind === 'create') {
      if (state.channelId) throw conflict('This channel already exists');
      return [NotificationChannelCreated(command.event)];
    }
    const channelId = command.kind === 'test' ? command.channelId : command.event.channelId;
    if (state.channelId !== channelId) throw notFound('No such notification channel');
    if (command.kind === 'test') {
      if (!state.enabled) throw conflict('The channel is disabled; enable it to test it');
      return [NotificationChannelTestRequested({ channelId, testId: command.testId })];
    }
    return Object.keys(command.event.changes).length
      ? [NotificationChannelUpdated(command.event)]
      : [];
  },
};
