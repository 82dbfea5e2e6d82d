import { isDeepStrictEqual } from 'node:util';
import { notFound } from '../../common/app-error.js';
import type { Decider, EventLike } from '../../storage/decider.js';
import type { ApprovalRule } from '../../events/deployments.events.js';
import { assertNotHeldBack, type RuleSubject } from '../approval-rules.js';
import {
  BackupScheduleRemoved,
  BackupScheduleSet,
  type BackupScheduleSettings,
  type RestoreTestSettings,
} from '../../events/backup-schedules.events.js';

export interface BackupScheduleState {
  settings: BackupScheduleSettings | null;
}

export type BackupScheduleCommand =
  | {
      kind: 'set';
      settings: BackupScheduleSettings;
      /** Who asks, and the service's approval rule as its own stream says it now. */
      by: RuleSubject;
      rule: ApprovalRule;
    }
  | { kind: 'remove'; serviceId: string };

/** The image and command a restore test runs, when chosen (not the volume helper's own). */
function chosenTest(test: RestoreTestSettings | null | undefined) {
  if (!test || (!test.image && !test.command)) return null;
  return { image: test.image, command: test.command };
}

/**
 * Stream `backup-schedule-<serviceId>`: at most one schedule per service, set whole. A restore
 * test's image and command run on the service's server after every backup, with no approval:
 * only a caller the service's approval rule does not hold back chooses new ones (keeping them,
 * or dropping the test, is anyone's).
 */
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
    const test = chosenTest(command.settings.restoreTest);
    if (test && !isDeepStrictEqual(test, chosenTest(state.settings?.restoreTest)))
      assertNotHeldBack(
        command.rule,
        command.by,
        'choose what its restore tests run',
        'restoreTest',
      );
    if (state.settings && isDeepStrictEqual(state.settings, command.settings)) return [];
    return [BackupScheduleSet(command.settings)];
  },
};
