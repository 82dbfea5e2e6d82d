import { describe, it } from '@jest/globals';
import { BackupScheduleRemoved, BackupScheduleSet } from '../../events/backup-schedules.events.js';
import { given } from '../../storage/testing/given.js';
import { backupScheduleDecider as schedule } from './backup-schedule.decider.js';

const settings = {
  serviceId: 's-1',
  schedule: '0 3 * * *',
  timezone: 'UTC',
  retention: { keepLast: 7, keepDaily: 7, keepWeekly: 4 },
  enabled: true,
};

describe('backup schedule decider', () => {
  it('Given none, When set, Then set; set the same again, Then nothing', () => {
    given(schedule).when({ kind: 'set', settings }).then(BackupScheduleSet(settings));
    given(schedule, BackupScheduleSet(settings)).when({ kind: 'set', settings }).thenNothing();
  });

  it('Given a schedule, When removed, Then gone; Given none, removing is refused', () => {
    given(schedule, BackupScheduleSet(settings))
      .when({ kind: 'remove', serviceId: 's-1' })
      .then(BackupScheduleRemoved({ serviceId: 's-1' }));
    given(schedule)
      .when({ kind: 'remove', serviceId: 's-1' })
      .thenRefused('NOT_FOUND', /no backup schedule/);
  });
});
