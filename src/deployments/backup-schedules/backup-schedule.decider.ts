import { isDeepStrictEqual } from 'node:util';
import { notFound } from '../../common/app-error.js';
import type { Decider, EventLike } from '../../storage/decider.js';
import {
  BackupScheduleRemoved,
  BackupScheduleSet,
  type BackupScheduleSettings,
} from '../../events/backup-schedules.events.js';

export interface BackupScheduleState {
  settings: BackupScheduleSettings | null;
}

export type BackupScheduleCommand =
  { kind: 'set'; settings: BackupScheduleSettings } | { kind: 'remove'; serviceId: string };

/** Stream `backup-schedule-<serviceId>`: at most one schedule per service, set whole. */
export const backupScheduleDecider: Decider<BackupScheduleState, BackupScheduleCommand> = {
  initialState: () => ({ settings: null }),

  evolve(state, event: EventLike) {
    if (event.type === BackupScheduleSet.type) return { settings: BackupScheduleSet.dataOf(event) };
    if (event.type === BackupScheduleRemoved.type) return { settings: null };
    return state;
  },

  decide(command, state) {
    if (command.kind === 'remove') {
      if (!state.settings) throw notFound('The service has no backup schedule');
      return [BackupScheduleRemoved({ serviceId: command.serviceId })];
    }
    if (state.settings && isDeepStrictEqual(state.settings, command.settings)) return [];
    return [BackupScheduleSet(command.settings)];
  },
};
