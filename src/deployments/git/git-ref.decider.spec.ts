import { describe, expect, it } from '@jest/globals';
import { GitPushAccepted, type GitPushAcceptedData } from '../../events/git-sources.events.js';
import { decideFrom } from '../../storage/decider.js';
import { given } from '../../storage/testing/given.js';
import {
  gitRefDecider as ref,
  gitRefStreamOf,
  pushTaken,
  REMEMBERED_COMMITS,
  type GitRefCommand,
} from './git-ref.decider.js';

const commit = (n: number) => n.toString(16).padStart(40, 'c');
const [A, B, C, D] = [1, 2, 3, 4].map(commit);

/** A push of main moving it from `before` (null: created) to `after`. */
const pushed = (before: string | null, after: string): GitPushAcceptedData => ({
  serviceId: 's1',
  repository: 'git@github.com:acme/api.git',
  ref: 'refs/heads/main',
  before,
  after,
  deliveryId: `d-${after.slice(-2)}`,
  provider: 'github',
});
const accept = (before: string | null, after: string): GitRefCommand => ({
  kind: 'accept',
  push: pushed(before, after),
});
const accepted = (before: string | null, after: string) => GitPushAccepted(pushed(before, after));

/** Whether the push is taken, as the handler reads it: the head after the decision. */
function taken(history: ReturnType<typeof accepted>[], command: GitRefCommand): boolean {
  const events = decideFrom(ref, history, command);
  const state = [...history, ...events].reduce((s, e) => ref.evolve(s, e), ref.initialState());
  return pushTaken(state, command.push);
}

describe('git ref decider', () => {
  it('takes a ref’s first push, and each push from its head', () => {
    given(ref).when(accept(null, A)).then(accepted(null, A));
    given(ref, accepted(null, A)).when(accept(A, B)).then(accepted(A, B));
    given(ref, accepted(null, A), accepted(A, B)).when(accept(B, C)).then(accepted(B, C));
  });

  it('ignores a late push of a commit the ref has moved past', () => {
    // B→C came first: B is where the ref was moved from, so A→B arriving late is behind it.
    given(ref, accepted(null, A), accepted(B, C)).when(accept(A, B)).thenNothing();
    expect(taken([accepted(null, A), accepted(B, C)], accept(A, B))).toBe(false);
    // An earlier head too, whatever the late push says it moved from.
    given(ref, accepted(null, A), accepted(A, B), accepted(B, C)).when(accept(D, A)).thenNothing();
    expect(taken([accepted(A, B), accepted(B, C)], accept(null, A))).toBe(false);
  });

  it('takes a force-push back to an older commit: it moves the ref from its head', () => {
    const history = [accepted(null, A), accepted(A, B), accepted(B, C)];
    given(ref, ...history)
      .when(accept(C, A))
      .then(accepted(C, A));
    expect(taken(history, accept(C, A))).toBe(true);
    // And C is now behind it: the force-push's own late predecessor does not undo it.
    given(ref, ...history, accepted(C, A))
      .when(accept(B, C))
      .thenNothing();
  });

  it('takes a push unrelated to what the ref remembers (deliveries it never had)', () => {
    given(ref, accepted(null, A)).when(accept(C, D)).then(accepted(C, D));
    expect(taken([accepted(null, A)], accept(C, D))).toBe(true);
  });

  it('takes a push to the commit the ref is at without recording it again', () => {
    const history = [accepted(null, A), accepted(A, B)];
    given(ref, ...history)
      .when(accept(A, B))
      .thenNothing();
    expect(taken(history, accept(A, B))).toBe(true);
  });

  it('remembers the last commits it moved past, not all of them', () => {
    const history = [accepted(null, commit(0))];
    for (let n = 1; n <= REMEMBERED_COMMITS + 10; n++)
      history.push(accepted(commit(n - 1), commit(n)));
    const state = history.reduce((s, e) => ref.evolve(s, e), ref.initialState());
    expect(state.past).toHaveLength(REMEMBERED_COMMITS);
    expect(state.head).toBe(commit(REMEMBERED_COMMITS + 10));
    // Forgotten: taken as unrelated. Remembered: ignored.
    expect(taken(history, accept(null, commit(5)))).toBe(true);
    expect(taken(history, accept(null, commit(REMEMBERED_COMMITS)))).toBe(false);
  });

  it('keeps each ref of each repository of a service on a stream of its own', () => {
    const main = gitRefStreamOf('s1', 'github.com/acme/api', 'refs/heads/main');
    expect(main).toMatch(/^git-ref-s1-[0-9a-f]{64}$/);
    expect(gitRefStreamOf('s1', 'github.com/acme/api', 'refs/heads/dev')).not.toBe(main);
    expect(gitRefStreamOf('s1', 'github.com/acme/fork', 'refs/heads/main')).not.toBe(main);
    expect(gitRefStreamOf('s2', 'github.com/acme/api', 'refs/heads/main')).not.toBe(main);
  });
});
