import { describe, it } from '@jest/globals';
import {
  PreviewApproved,
  PreviewClosed,
  PreviewOpened,
  PreviewUpdated,
} from '../../../events/previews.events.js';
import { given } from '../../../storage/testing/given.js';
import { previewsDecider as previews, type PullRequestMove } from './preview.decider.js';

const pr = (number: number, change: Partial<PullRequestMove> = {}): PullRequestMove => ({
  serviceId: 's1',
  number,
  headCommit: 'a'.repeat(40),
  headRef: 'feature',
  fromFork: false,
  author: 'ada',
  title: 'A change',
  domain: `pr-${number}.preview.example.com`,
  expiresAt: '2026-12-01T00:00:00.000Z',
  limit: 2,
  ...change,
});
const opened = (number: number, change: Partial<PullRequestMove> = {}) => {
  const { limit: _limit, ...data } = pr(number, change);
  return PreviewOpened({ ...data, awaitingApproval: data.fromFork });
};

describe('pull request previews', () => {
  it('opens a preview for a pull request of the repository itself', () => {
    given(previews)
      .when({ kind: 'move', pr: pr(7) })
      .then(opened(7));
  });

  it('a fork’s preview waits for an approval, given once', () => {
    given(previews)
      .when({ kind: 'move', pr: pr(8, { fromFork: true }) })
      .then(opened(8, { fromFork: true }));
    given(previews, opened(8, { fromFork: true }))
      .when({ kind: 'approve', serviceId: 's1', number: 8 })
      .then(PreviewApproved({ serviceId: 's1', number: 8 }));
    given(previews, opened(8, { fromFork: true }), PreviewApproved({ serviceId: 's1', number: 8 }))
      .when({ kind: 'approve', serviceId: 's1', number: 8 })
      .thenNothing();
    given(previews).when({ kind: 'approve', serviceId: 's1', number: 9 }).thenRefused('NOT_FOUND');
  });

  it('a push moves the preview to its commit and renews its time; the same commit is nothing', () => {
    const moved = pr(7, { headCommit: 'b'.repeat(40), expiresAt: '2026-12-02T00:00:00.000Z' });
    given(previews, opened(7))
      .when({ kind: 'move', pr: moved })
      .then(
        PreviewUpdated({
          serviceId: 's1',
          number: 7,
          headCommit: 'b'.repeat(40),
          expiresAt: '2026-12-02T00:00:00.000Z',
        }),
      );
    given(previews, opened(7))
      .when({ kind: 'move', pr: pr(7) })
      .thenNothing();
  });

  it('refuses a preview over the limit, counting the ones waiting for approval', () => {
    given(previews, opened(1), opened(2, { fromFork: true }))
      .when({ kind: 'move', pr: pr(3) })
      .thenRefused('CONFLICT', /2 previews already/);
    given(
      previews,
      opened(1),
      opened(2),
      PreviewClosed({ serviceId: 's1', number: 1, reason: 'merged' }),
    )
      .when({ kind: 'move', pr: pr(3) })
      .then(opened(3));
  });

  it('closes a live preview once; a pull request reopened later opens it again', () => {
    given(previews, opened(7))
      .when({ kind: 'close', serviceId: 's1', number: 7, reason: 'merged' })
      .then(PreviewClosed({ serviceId: 's1', number: 7, reason: 'merged' }));
    const closed = PreviewClosed({ serviceId: 's1', number: 7, reason: 'closed' });
    given(previews, opened(7), closed)
      .when({ kind: 'close', serviceId: 's1', number: 7, reason: 'closed' })
      .thenNothing();
    given(previews, opened(7), closed)
      .when({ kind: 'move', pr: pr(7) })
      .then(opened(7));
  });

  it('expires the previews whose time has come, and only those', () => {
    given(
      previews,
      opened(1, { expiresAt: '2026-11-30T00:00:00.000Z' }),
      opened(2, { expiresAt: '2026-12-05T00:00:00.000Z' }),
    )
      .when({ kind: 'expire', serviceId: 's1', now: '2026-12-01T00:00:00.000Z' })
      .then(PreviewClosed({ serviceId: 's1', number: 1, reason: 'expired' }));
    given(previews).when({ kind: 'expire', serviceId: 's1', now: '2027-01-01' }).thenNothing();
  });
});
