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
const C = 'c'.repeat(40);

const pr = (number: number, change: Partial<PullRequestMove> = {}): PullRequestMove => ({
  serviceId: 's1',
  number,
  provider: 'github',
  headCommit: A,
  headRef: 'feature',
  fromFork: false,
  author: 'ada',
  title: 'A change',
  domain: `pr-${number}.preview.example.com`,
  previewServiceId: `p${number}`,
  serviceName: 'web',
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
const updated = (number: number, headCommit: string, awaitingApproval: boolean) =>
  PreviewUpdated({
    serviceId: 's1',
    number,
    headCommit,
    expiresAt: '2026-12-02T00:00:00.000Z',
    awaitingApproval,
  });
const push = (number: number, headCommit: string, change: Partial<PullRequestMove> = {}) => ({
  kind: 'move' as const,
  pr: pr(number, { headCommit, expiresAt: '2026-12-02T00:00:00.000Z', ...change }),
});
const approve = (number: number, headCommit: string) => ({
  kind: 'approve' as const,
  serviceId: 's1',
  number,
  headCommit,
});
const approved = (number: number, headCommit: string) =>
  PreviewApproved({ serviceId: 's1', number, headCommit });
const closed = (number: number, reason: 'closed' | 'merged' | 'expired' | 'removed' = 'closed') =>
  PreviewClosed({ serviceId: 's1', number, reason });
const tornDown = (number: number, previewServiceId = `p${number}`) => ({
  kind: 'torn-down' as const,
  serviceId: 's1',
  number,
  previewServiceId,
});

describe('pull request previews', () => {
  it('opens a preview for a pull request of the repository itself, named after the service', () => {
    given(previews)
      .when({ kind: 'move', pr: pr(7) })
      .then(opened(7));
    expect(opened(7).data).toMatchObject({
      previewServiceName: 'web-pr-7',
      previewServiceId: 'p7',
      provider: 'github',
      awaitingApproval: false,
    });
  });

  it('a fork’s preview waits for an approval of its head commit, given once', () => {
    const fork = opened(8, { fromFork: true });
    given(previews)
      .when({ kind: 'move', pr: pr(8, { fromFork: true }) })
      .then(fork);
    given(previews, fork).when(approve(8, A)).then(approved(8, A));
    given(previews, fork, approved(8, A)).when(approve(8, A)).thenNothing();
    given(previews).when(approve(9, A)).thenRefused('NOT_FOUND');
    given(previews, opened(7)).when(approve(7, A)).thenNothing();
  });

  it('a push moves the preview to its commit and renews its time; the same commit is nothing', () => {
    given(previews, opened(7))
      .when(push(7, B))
      .then(updated(7, B, false));
    given(previews, opened(7))
      .when({ kind: 'move', pr: pr(7) })
      .thenNothing();
  });

  it('a push to a fork waits for an approval again; approving an older commit lets nothing through', () => {
    const fork = opened(8, { fromFork: true });
    given(previews, fork, approved(8, A))
      .when(push(8, B, { fromFork: true }))
      .then(updated(8, B, true));
    // The approval of A, recorded after the push to B, does not approve B.
    given(previews, fork, updated(8, B, true), approved(8, A))
      .when(approve(8, B))
      .then(approved(8, B));
    given(previews, fork, approved(8, A), updated(8, B, true), updated(8, C, true))
      .when(approve(8, C))
      .then(approved(8, C));
    given(previews, fork, updated(8, B, true), approved(8, B))
      .when(approve(8, B))
      .thenNothing();
  });

  it('approves only the commit the person looked at: a push since is refused', () => {
    const fork = opened(8, { fromFork: true });
    given(previews, fork, updated(8, B, true))
      .when(approve(8, A))
      .thenRefused('CONFLICT', /is at .* now, not .*: look at it again/);
  });

  it('refuses a preview over the limit, counting the ones waiting for approval', () => {
    given(previews, opened(1), opened(2, { fromFork: true }))
      .when({ kind: 'move', pr: pr(3) })
      .thenRefused('CONFLICT', /2 previews already/);
    given(previews, opened(1), opened(2), closed(1, 'merged'))
      .when({ kind: 'move', pr: pr(3) })
      .then(opened(3));
    given(previews, opened(1), opened(2))
      .when(push(2, B))
      .then(updated(2, B, false));
  });

  it('closes a live preview once; closing an unknown one is nothing', () => {
    given(previews, opened(7))
      .when({ kind: 'close', serviceId: 's1', number: 7, reason: 'merged' })
      .then(closed(7, 'merged'));
    given(previews, opened(7), closed(7))
      .when({ kind: 'close', serviceId: 's1', number: 7, reason: 'closed' })
      .thenNothing();
    given(previews)
      .when({ kind: 'close', serviceId: 's1', number: 9, reason: 'closed' })
      .thenNothing();
  });

  it('closes every live preview at once', () => {
    given(previews, opened(1), opened(2), opened(3), closed(2))
      .when({ kind: 'close-all', serviceId: 's1' })
      .then(closed(1, 'removed'), closed(3, 'removed'));
    given(previews).when({ kind: 'close-all', serviceId: 's1' }).thenNothing();
  });

  it('expires the previews whose time has come, and only those', () => {
    given(
      previews,
      opened(1, { expiresAt: '2026-11-30T00:00:00.000Z' }),
      opened(2, { expiresAt: '2026-12-05T00:00:00.000Z' }),
      opened(3, { expiresAt: '2026-12-01T00:00:00.000Z' }),
    )
      .when({ kind: 'expire', serviceId: 's1', now: '2026-12-01T00:00:00.000Z' })
      .then(closed(1, 'expired'), closed(3, 'expired'));
    given(previews, opened(1, { expiresAt: '2026-11-30T00:00:00.000Z' }), updated(1, B, false))
      .when({ kind: 'expire', serviceId: 's1', now: '2026-12-01T00:00:00.000Z' })
      .thenNothing();
    given(previews)
      .when({ kind: 'expire', serviceId: 's1', now: '2027-01-01T00:00:00.000Z' })
      .thenNothing();
  });

  it('records a closed preview torn down once, and only with its own service id', () => {
    const torn = PreviewTornDown({ serviceId: 's1', number: 7, previewServiceId: 'p7' });
    given(previews, opened(7), closed(7)).when(tornDown(7)).then(torn);
    given(previews, opened(7), closed(7), torn).when(tornDown(7)).thenNothing();
    given(previews, opened(7), closed(7)).when(tornDown(7, 'other')).thenNothing();
    given(previews, opened(7)).when(tornDown(7)).thenNothing();
    given(previews).when(tornDown(7)).thenNothing();
  });

  it('a request closed, reopened and closed again before any teardown has both torn down', () => {
    const twice = [opened(7), closed(7), opened(7, { previewServiceId: 'p7b' }, 2), closed(7)];
    given(previews, ...twice)
      .when(tornDown(7))
      .then(PreviewTornDown({ serviceId: 's1', number: 7, previewServiceId: 'p7' }));
    given(previews, ...twice)
      .when(tornDown(7, 'p7b'))
      .then(PreviewTornDown({ serviceId: 's1', number: 7, previewServiceId: 'p7b' }));
  });

  it('a pull request reopened after closing opens again under a new name', () => {
    given(previews, opened(7), closed(7))
      .when({ kind: 'move', pr: pr(7, { previewServiceId: 'p7b' }) })
      .then(opened(7, { previewServiceId: 'p7b' }, 2));
    expect(opened(7, {}, 2).data.previewServiceName).toBe('web-pr-7-2');
    given(previews, opened(7), closed(7), opened(7, {}, 2), closed(7))
      .when({ kind: 'move', pr: pr(7) })
      .then(opened(7, {}, 3));
    expect(opened(7, {}, 3).data.previewServiceName).toBe('web-pr-7-3');
  });
});

describe('previewServiceName', () => {
  it('names the first preview <name>-pr-<n>, then -2, -3… on reopening', () => {
    expect(previewServiceName('web', 12, 1)).toBe('web-pr-12');
    expect(previewServiceName('web', 12, 2)).toBe('web-pr-12-2');
    expect(previewServiceName('web', 12, 3)).toBe('web-pr-12-3');
  });

  it('truncates the service’s name to keep the whole at 80 characters, suffix kept', () => {
    const long = 'x'.repeat(100);
    expect(previewServiceName(long, 1234, 1)).toBe(`${'x'.repeat(72)}-pr-1234`);
    expect(previewServiceName(long, 1234, 2)).toHaveLength(80);
    expect(previewServiceName(long, 1234, 2).endsWith('-pr-1234-2')).toBe(true);
    expect(previewServiceName('y'.repeat(75), 7, 1)).toBe(`${'y'.repeat(75)}-pr-7`);
    expect(previewServiceName('y'.repeat(76), 7, 1)).toBe(`${'y'.repeat(75)}-pr-7`);
    // A cut that ends on a separator drops it: never `--pr-`.
    expect(previewServiceName(`${'z'.repeat(74)}-abc`, 7, 1)).toBe(`${'z'.repeat(74)}-pr-7`);
  });
});
