import { conflict, notFound } from '../../../common/app-error.js';
import type { PendingEvent } from '../../../eventstore/define-event.js';
import {
  PreviewApproved,
  PreviewClosed,
  PreviewOpened,
  PreviewUpdated,
  type PreviewData,
} from '../../../events/previews.events.js';
import type { Decider } from '../../../storage/decider.js';

export interface LivePreview {
  number: number;
  headCommit: string;
  fromFork: boolean;
  awaitingApproval: boolean;
  domain: string;
  expiresAt: string;
}

/** The previews a service has now: only the live ones, so the state stays small. */
export interface PreviewsState {
  live: Readonly<Record<number, LivePreview>>;
}

/** A pull request as its delivery says it, and what the source allows. */
export type PullRequestMove = Omit<PreviewData, 'expiresAt'> & {
  /** The most previews a service may have at once (waiting ones count). */
  limit: number;
  /** The new expiry: now plus the source's time to live. */
  expiresAt: string;
};

export type PreviewCommand =
  /** Opened, reopened, or pushed to (an unknown one opens: it may predate the setting). */
  | { kind: 'move'; pr: PullRequestMove }
  | { kind: 'close'; serviceId: string; number: number; reason: 'closed' | 'merged' | 'removed' }
  | { kind: 'approve'; serviceId: string; number: number }
  /** Closes every preview whose time has come. */
  | { kind: 'expire'; serviceId: string; now: string };

/**
 * A service's pull-request previews on the stream `service-previews-<serviceId>`, one per open
 * pull request. A pull request from a fork waits for an approval before anything of it is built
 * (its code and Dockerfile are anyone's); a push to it moves the preview to the new commit and
 * renews its time to live; the limit counts waiting previews too, so forks cannot crowd the
 * service's out unnoticed. Closing what is not live records nothing.
 */
export const previewsDecider: Decider<PreviewsState, PreviewCommand> = {
  initialState: () => ({ live: {} }),
  evolve(state, event) {
    if (event.type === PreviewOpened.type) {
      const d = PreviewOpened.dataOf(event);
      return {
        live: {
          ...state.live,
          [d.number]: {
            number: d.number,
            headCommit: d.headCommit,
            fromFork: d.fromFork,
            awaitingApproval: d.awaitingApproval,
            domain: d.domain,
            expiresAt: d.expiresAt,
          },
        },
      };
    }
    const live = (n: number, change: Partial<LivePreview>) =>
      state.live[n] ? { live: { ...state.live, [n]: { ...state.live[n], ...change } } } : state;
    if (event.type === PreviewUpdated.type) {
      const d = PreviewUpdated.dataOf(event);
      return live(d.number, { headCommit: d.headCommit, expiresAt: d.expiresAt });
    }
    if (event.type === PreviewApproved.type)
      return live(PreviewApproved.dataOf(event).number, { awaitingApproval: false });
    if (event.type === PreviewClosed.type) {
      const rest = { ...state.live };
      delete rest[PreviewClosed.dataOf(event).number];
      return { live: rest };
    }
    return state;
  },
  decide(command, state): PendingEvent[] {
    if (command.kind === 'move') {
      const { limit, ...pr } = command.pr;
      const current = state.live[pr.number];
      if (current) {
        if (current.headCommit === pr.headCommit) return [];
        return [
          PreviewUpdated({
            serviceId: pr.serviceId,
            number: pr.number,
            headCommit: pr.headCommit,
            expiresAt: pr.expiresAt,
          }),
        ];
      }
      const open = Object.keys(state.live).length;
      if (open >= limit)
        throw conflict(`This service has its ${limit} previews already: close one first`, {
          reason: 'preview-limit',
          limit,
        });
      return [PreviewOpened({ ...pr, awaitingApproval: pr.fromFork })];
    }
    if (command.kind === 'approve') {
      const current = state.live[command.number];
      if (!current) throw notFound(`No preview of pull request ${command.number}`);
      if (!current.awaitingApproval) return [];
      return [PreviewApproved({ serviceId: command.serviceId, number: command.number })];
    }
    if (command.kind === 'close') {
      if (!state.live[command.number]) return [];
      const { serviceId, number, reason } = command;
      return [PreviewClosed({ serviceId, number, reason })];
    }
    return Object.values(state.live)
      .filter((p) => p.expiresAt <= command.now)
      .map((p) =>
        PreviewClosed({ serviceId: command.serviceId, number: p.number, reason: 'expired' }),
      );
  },
};
