import { describe, expect, it } from '@jest/globals';
import { given } from '../storage/testing/given.js';
import {
  NotificationChannelCreated,
  NotificationChannelTestRequested,
  NotificationChannelUpdated,
} from '../events/notifications.events.js';
import { notificationChannelDecider } from './notification-channel.decider.js';
import { NOTIFICATION_SUBJECTS, SUBJECT_EVENTS, subjectOf } from './notification-subjects.js';

const created = {
  channelId: 'c1',
  name: 'ops',
  kind: 'webhook' as const,
  targetCiphertext: 'v1.x',
  targetHint: 'https://hooks.example.com/…',
  secretCiphertext: 'v1.s',
  subscriptions: ['deployment.failed' as const],
};

describe('notification channel decider', () => {
  it('creates a channel once', () => {
    given(notificationChannelDecider)
      .when({ kind: 'create', event: created })
      .then(NotificationChannelCreated(created));
    given(notificationChannelDecider, NotificationChannelCreated(created))
      .when({ kind: 'create', event: created })
      .thenRefused('CONFLICT');
  });

  it('changes a known channel; an empty change is no event; an unknown one is 404', () => {
    const update = { channelId: 'c1', changes: { enabled: false } };
    given(notificationChannelDecider, NotificationChannelCreated(created))
      .when({ kind: 'update', event: update })
      .then(NotificationChannelUpdated(update));
    given(notificationChannelDecider, NotificationChannelCreated(created))
      .when({ kind: 'update', event: { channelId: 'c1', changes: {} } })
      .thenNothing();
    given(notificationChannelDecider)
      .when({ kind: 'update', event: update })
      .thenRefused('NOT_FOUND');
  });

  it('tests an enabled channel only', () => {
    given(notificationChannelDecider, NotificationChannelCreated(created))
      .when({ kind: 'test', channelId: 'c1', testId: 't1' })
      .then(NotificationChannelTestRequested({ channelId: 'c1', testId: 't1' }));
    given(
      notificationChannelDecider,
      NotificationChannelCreated(created),
      NotificationChannelUpdated({ channelId: 'c1', changes: { enabled: false } }),
    )
      .when({ kind: 'test', channelId: 'c1', testId: 't1' })
      .thenRefused('CONFLICT', /disabled/);
  });
});

describe('notification subjects', () => {
  it('maps each event type to one subject, including those other contexts will emit', () => {
    expect(subjectOf('DeploymentSucceeded')).toBe('deployment.succeeded');
    expect(subjectOf('ApprovalRejected')).toBe('approval.decided');
    expect(subjectOf('BackupFailed')).toBe('backup.failed');
    expect(subjectOf('RestoreFailed')).toBe('backup.failed');
    expect(subjectOf('TokenExpiryNoticed')).toBe('token.expiring');
    expect(subjectOf('DeploymentStarted')).toBeNull();
    const types = NOTIFICATION_SUBJECTS.flatMap((s) => SUBJECT_EVENTS[s]);
    expect(new Set(types).size).toBe(types.length);
  });
});
