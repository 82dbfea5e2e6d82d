import { describe, expect, it } from '@jest/globals';
import {
  PreviewApproved,
  PreviewClosed,
  PreviewOpened,
  PreviewTornDown,
  PreviewUpdated,
} from '../../../events/previews.events.js';
import { given } from '../../../storage/testing/given.js';
import {
  previewServiceName,
  previewsDecider as previews,
  type PullRequestMove,
} from './preview.decider.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const serviceIdOf = (number: number) =>
  `00000000-0000-4000-8000-${String(number).padStart(12, '0')}`;

const pr = (number: number, change: Partial<PullRequestMove> = {}): PullRequestMove => ({
  serviceId: 's1',
  serviceName: 'api',
  number,
  provider: 'github',
  headCommit: A,
  headRef: 'feature',
  fromFork: false,
  author: 'ada',
  title: 'A change',
  domain: `pr-${number}.preview.example.com`,
  previewServiceId: serviceIdOf(number),
  expiresAt: '2026-12-01T00:00:00.000Z',
  limit: 2,
  ...change,
});
const opened = (number: number, change: Partial<PullRequestMove> = {}, times = 1) => {
  const { limit: _limit, serviceName, ...data } = pr(number, change);
  return PreviewOpened({
    ...data,
    previewServiceName: previewServiceName(serviceName, number, times),
    awaitingApproval: data.fromFork,
  });
};
const closed = (number: number, reason: 'closed' | 'merged' | 'expired' | 'removed' = 'closed') =>
  PreviewClosed({ serviceId: 's1', number, reason });
const updated = (number: number, headCommit: string, awaitingApproval = false) =>
  PreviewUpdated({
    serviceId: 's1',
    number,
    headCommit,
    expiresAt: '2026-12-02T00:00:00.000Z',
    awaitingApproval,
  });
const moved = (number: number, headCommit: string, fromFork = false) =>
  pr(number, { headCommit, fromFork, expiresAt: '2026-12-02T00:00:00.000Z' });
const approve = (number: number) => ({ kind: 'approve', serviceId: 's1', number }) as const;

describe('pull request previews', () => {
  it('opens a preview of a pull request of the repository itself, named after the service', () => {
    given(previews)
      .when({ kind: 'move', pr: pr(7) })
      .then(opened(7));
    expect(opened(7).data).toMatchObject({
      previewServiceName: 'api-pr-7',
      awaitingApproval: false,
    });
  });

  it('a fork’s preview waits for an approval of its head commit, given once', () => {
    const fork = opened(8, { fromFork: true });
    given(previews)
      .when({ kind: 'move', pr: pr(8, { fromFork: true }) })
      .then(fork);
    given(previews, fork)
      .when(approve(8))
      .then(PreviewApproved({ serviceId: 's1', number: 8, headCommit: A }));
    given(previews, fork, PreviewApproved({ serviceId: 's1', number: 8, headCommit: A }))
      .when(approve(8))
      .thenNothing();
    given(previews).when(approve(9)).thenRefused('NOT_FOUND');
    given(previews, opened(7)).when(approve(7)).thenNothing();
  });

  it('a push moves the preview to its commit and renews its time; the same commit is nothing', () => {
    given(previews, opened(7))
      .when({ kind: 'move', pr: moved(7, B) })
      .then(updated(7, B));
    given(previews, opened(7))
      .when({ kind: 'move', pr: pr(7) })
      .thenNothing();
  });

  it('a push to an approved fork waits again; an approval of its older commit lets nothing through', () => {
    const history = [
      opened(8, { fromFork: true }),
      PreviewApproved({ serviceId: 's1', number: 8, headCommit: A }),
    ];
    given(previews, ...history)
      .when({ kind: 'move', pr: moved(8, B, true) })
      .then(updated(8, B, true));
    // An approval recorded for A after B arrived (a race) does not approve B.
    given(
      previews,
      opened(8, { fromFork: true }),
      updated(8, B, true),
      PreviewApproved({ serviceId: 's1', number: 8, headCommit: A }),
    )
      .when(approve(8))
      .then(PreviewApproved({ serviceId: 's1', number: 8, headCommit: B }));
  });

  it('refuses a preview over the limit, counting the ones waiting for approval', () => {
    given(previews, opened(1), opened(2, { fromFork: true }))
      .when({ kind: 'move', pr: pr(3) })
      .thenRefused('CONFLICT', /2 previews already/);
    given(previews, opened(1), opened(2), closed(1, 'merged'))
      .when({ kind: 'move', pr: pr(3) })
      .then(opened(3));
  });

  it('closes a live preview once; reopened, its service gets a name of its own', () => {
    given(previews, opened(7))
      .when({ kind: 'close', serviceId: 's1', number: 7, reason: 'merged' })
      .then(closed(7, 'merged'));
    given(previews, opened(7), closed(7))
      .when({ kind: 'close', serviceId: 's1', number: 7, reason: 'closed' })
      .thenNothing();
    const again = { previewServiceId: serviceIdOf(70) };
    given(previews, opened(7), closed(7))
      .when({ kind: 'move', pr: pr(7, again) })
      .then(opened(7, again, 2));
    expect(opened(7, again, 2).data.previewServiceName).toBe('api-pr-7-2');
  });

  it('closes every live preview when the service stops previewing', () => {
    given(previews, opened(1), opened(2), closed(1))
      .when({ kind: 'close-all', serviceId: 's1' })
      .then(closed(2, 'removed'));
    given(previews).when({ kind: 'close-all', serviceId: 's1' }).thenNothing();
  });

  it('expires the previews whose time has come, and only those', () => {
    given(
      previews,
      opened(1, { expiresAt: '2026-11-30T00:00:00.000Z' }),
      opened(2, { expiresAt: '2026-12-05T00:00:00.000Z' }),
    )
      .when({ kind: 'expire', serviceId: 's1', now: '2026-12-01T00:00:00.000Z' })
      .then(closed(1, 'expired'));
    given(previews).when({ kind: 'expire', serviceId: 's1', now: '2027-01-01' }).thenNothing();
  });

  it('records a closed preview torn down once, and only for its own service', () => {
    const tornDown = { kind: 'torn-down', serviceId: 's1', number: 7 } as const;
    given(previews, opened(7), closed(7))
      .when({ ...tornDown, previewServiceId: serviceIdOf(7) })
      .then(PreviewTornDown({ serviceId: 's1', number: 7, previewServiceId: serviceIdOf(7) }));
    given(
      previews,
      opened(7),
      closed(7),
      PreviewTornDown({ serviceId: 's1', number: 7, previewServiceId: serviceIdOf(7) }),
    )
      .when({ ...tornDown, previewServiceId: serviceIdOf(7) })
      .thenNothing();
    given(previews, opened(7), closed(7))
      .when({ ...tornDown, previewServiceId: serviceIdOf(99) })
      .thenNothing();
    given(previews, opened(7))
      .when({ ...tornDown, previewServiceId: serviceIdOf(7) })
      .thenNothing();
  });

  it('names a preview’s service within 80 characters', () => {
    expect(previewServiceName('api', 12, 1)).toBe('api-pr-12');
    expect(previewServiceName('api', 12, 3)).toBe('api-pr-12-3');
    const long = previewServiceName('s'.repeat(80), 123456789, 2);
    expect(long).toHaveLength(80);
    expect(long.endsWith('-pr-123456789-2')).toBe(true);
  });
});
