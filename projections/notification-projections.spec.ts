import { describe, it } from '@jest/globals';
import {
  DeployHookCreated,
  DeployHookRevoked,
  NotificationChannelCreated,
  NotificationChannelUpdated,
} from '../src/events/notifications.events.js';
import { deployHooksProjection } from './deploy-hooks.projection.js';
import { notificationChannelsProjection } from './notification-channels.projection.js';
import { at } from './testing/given-events.js';
import { givenProjection } from './testing/given-projection.js';

describe('notification_channels projection', () => {
  it('holds the channel with its creation position, then its changes', () => {
    givenProjection(notificationChannelsProjection)
      .given(
        NotificationChannelCreated({
          channelId: 'c1',
          name: 'ops',
          kind: 'slack',
          targetCiphertext: 'v1.x',
          targetHint: 'https://hooks.slack.com/…',
          secretCiphertext: null,
          subscriptions: ['deployment.failed'],
        }),
        NotificationChannelUpdated({
          channelId: 'c1',
          changes: { enabled: false, subscriptions: ['approval.requested'] },
        }),
      )
      .thenMatches({
        notification_channels: {
          c1: {
            kind: 'slack',
            enabled: false,
            subscriptions: ['approval.requested'],
            createdPosition: 1,
            createdAt: at(0),
            updatedAt: at(1),
          },
        },
      });
  });
});

describe('deploy_hooks projection', () => {
  it('holds the hook, then its revocation', () => {
    givenProjection(deployHooksProjection)
      .given(
        DeployHookCreated({
          hookId: 'h1',
          serviceId: 's1',
          name: 'ci',
          secretCiphertext: 'v1.x',
          rules: [{ source: 'tag', pattern: 'v*', image: 'ghcr.io/acme/api:{tag}' }],
        }),
        DeployHookRevoked({ hookId: 'h1' }),
      )
      .thenMatches({
        deploy_hooks: { h1: { serviceId: 's1', status: 'revoked', revokedAt: at(1) } },
      });
  });
});
