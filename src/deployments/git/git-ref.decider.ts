import { createHash } from 'node:crypto';
import type { PendingEvent } from '../../eventstore/define-event.js';
import {
  GitPushAccepted,
  gitRefStream,
  type GitPushAcceptedData,
} from '../../events/git-sources.events.js';
import type { Decider } from '../../storage/decider.js';

/** How many commits a ref remembers having moved past (the state stays this small). */
export const REMEMBERED_COMMITS = 100;

export interface GitRefState {
  /** The commit the last accepted push moved the ref to; null before any. */
  head: string | null;
  /**
   * Commits the ref has moved past (earlier heads, and where accepted pushes moved it from),
   * oldest first, never the head. Only the last `REMEMBERED_COMMITS`.
   */
  past: readonly string[];
}

/** A push of the ref that the source's rules deploy (see pushDecision). */
export type GitRefCommand = { kind: 'accept'; push: GitPushAcceptedData };

/**
 * The stream of one ref of the repository a service follows: a service switched to another
 * repository starts a history of its own, and the SSH and HTTPS addresses of one share one.
 */
export function gitRefStreamOf(serviceId: string, repositoryKey: string, ref: string): string {
  const digest = createHash('sha256').update(`${repositoryKey}\n${ref}`).digest('hex');
  return gitRefStream(serviceId, digest);
}

/**
 * One ref's pushes that Slipway acted on, on its stream `git-ref-…`, decided with the stream's
 * expected revision so two deliveries at once see each other. Providers do not promise to deliver
 * in order, and retry late: a push whose commit the ref has moved past (an earlier head, or where
 * an accepted push moved it from) is not taken, unless it moves the ref from its current head,
 * which is how a force-push back to an older commit (a rollback) arrives. A ref's first push, and
 * one unrelated to what is remembered, are taken. A push to the commit the ref is at already is
 * taken without a record (nothing moved; a replay of its delivery is the claim's to refuse).
 *
 * Whether a push was taken is read from the state after the decision: see `pushTaken`.
 */
export const gitRefDecider: Decider<GitRefState, GitRefCommand> = {
  initialState: () => ({ head: null, past: [] }),
  evolve(state, event) {
    if (event.type !== GitPushAccepted.type) return state;
    const { before, after } = GitPushAccepted.dataOf(event);
    const left = [...new Set([state.head, before])].filter(
      (c): c is string => c !== null && c !== after,
    );
    const past = [...state.past.filter((c) => c !== after && !left.includes(c)), ...left];
    return { head: after, past: past.slice(-REMEMBERED_COMMITS) };
  },
  decide({ push }, state): PendingEvent[] {
    if (push.after === state.head) return [];
    const fromHead = state.head !== null && push.before === state.head;
    if (!fromHead && state.past.includes(push.after)) return [];
    return [GitPushAccepted(push)];
  },
};

/** Whether the decided push goes on: the ref's head, after the decision, is its commit. */
export const pushTaken = (after: GitRefState, push: Pick<GitPushAcceptedData, 'after'>) =>
  after.head === push.after;
