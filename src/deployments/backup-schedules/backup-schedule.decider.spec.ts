import { describe, it } from '@jest/globals';
import { BackupScheduleRemoved, BackupScheduleSet } from '../../events/backup-schedules.events.js';
import { given } from '../../storage/testing/given.js';
import { AGENT, OPERATOR, OWNER } from '../testing/rule-subjects.js';
import { backupScheduleDecider as schedule } from './backup-schedule.decider.js';

const settings = {
  serviceId: 's-1',
  schedule: '0 3 * * *',
  timezone: 'UTC',
  retention: { keepLast: 7, keepDaily: 7, keepWeekly: 4 },
  enabled: true,
};

type Settings = Parameters<typeof BackupScheduleSet>[0];
const set = (s: Settings = settings, by = OWNER, rule: 'none' | 'agents' = 'none') => ({
  kind: 'set' as const,
  settings: s,
  by,
  rule,
});

describe('backup schedule decider', () => {
  it('Given none, When set, Then set; set the same again, Then nothing', () => {
    given(schedule).when(set()).then(BackupScheduleSet(settings));
    given(schedule, BackupScheduleSet(settings)).when(set()).thenNothing();
  });

  it('Given a schedule, When removed, Then gone; Given none, removing is refused', () => {
    given(schedule, BackupScheduleSet(settings))
      .when({ kind: 'remove', serviceId: 's-1' })
      .then(BackupScheduleRemoved({ serviceId: 's-1' }));
    given(schedule)
      .when({ kind: 'remove', serviceId: 's-1' })
      .thenRefused('NOT_FOUND', /no backup schedule/);
  });

  describe('a restore test’s image and command are chosen only by a caller the rule does not hold back', () => {
    const test = (command: string[]) => ({ image: 'postgres:16', command, timeLimitSeconds: 600 });
    const tested = { ...settings, restoreTest: test(['pg_restore', '--list']) };

    it('Given agents, When an agent sets or changes the test, Then refused', () => {
      given(schedule)
        .when(set(tested, AGENT, 'agents'))
        .thenRefused('FORBIDDEN', /choose what its restore tests run/);
      given(schedule, BackupScheduleSet(tested))
        .when(set({ ...settings, restoreTest: test(['sh', '-c', 'evil']) }, AGENT, 'agents'))
        .thenRefused('FORBIDDEN');
    });

    it('Given agents, When an agent keeps the test (or drops it) and changes the rest, Then set', () => {
      const kept = { ...tested, restoreTest: { ...tested.restoreTest, timeLimitSeconds: 60 } };
      given(schedule, BackupScheduleSet(tested))
        .when(set({ ...kept, schedule: '0 4 * * *' }, AGENT, 'agents'))
        .then(BackupScheduleSet({ ...kept, schedule: '0 4 * * *' }));
      given(schedule, BackupScheduleSet(tested))
        .when(set({ ...settings, restoreTest: null }, AGENT, 'agents'))
        .then(BackupScheduleSet({ ...settings, restoreTest: null }));
    });

    it('Given agents, When an operator sets the test, Then set', () => {
      given(schedule)
        .when(set(tested, OPERATOR, 'agents'))
        .then(BackupScheduleSet(tested));
    });
  });
});
