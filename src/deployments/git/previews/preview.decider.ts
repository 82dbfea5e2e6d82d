import { conflict, notFound } from '../../../common/app-error.js';
import type { PendingEvent } from '../../../eventstore/define-event.js';
import {
  PreviewApproved,
  PreviewClosed,
  PreviewOpened,
  PreviewTornDown,
  PreviewUpdated,
  type PreviewData,
} from '../../../events/previews.events.js';
import type { Decider } from '../../../storage/decider.js';

export interface LivePreview {
  number: number;
  provider: PreviewData['provider'];
  author: string | null;
  title: string | null;
  headCommit: string;
  fromFork: boolean;
  awaitingApproval: boolean;
  domain: string;
  previewServiceId: string;
  previewServiceName: string;
  expiresAt: string;
}

/**
 * The previews a service has now: the live ones, the closed ones not yet torn down (their
 * service ids), and how many times each pull request opened (for the next one's name).
 */
export interface PreviewsState {
  live: Readonly<Record<number, LivePreview>>;
  /** By the preview service's id: a request closed, reopened and closed again has two. */
  closing: Readonly<Record<string, ClosingPreview>>;
  opened: Readonly<Record<number, number>>;
}

/** A closed preview whose service is not torn down yet. */
export interface ClosingPreview {
  number: number;
  previewServiceName: string;
}

/** A pull request as its delivery says it, and what the source allows. */
export type PullRequestMove = Omit<PreviewData, 'expiresAt' | 'previewServiceName'> & {
  /** The name of the service previewed: the preview's is `<name>-pr-<number>`. */
  serviceName: string;
  /** The most previews a service may have at once (waiting ones count). */
  limit: number;
  /** The new expiry: now plus the source's time to live. */
  expiresAt: string;
};

export type PreviewCommand =
  /** Opened, reopened, or pushed to (an unknown one opens: it may predate the setting). */
  | { kind: 'move'; pr: PullRequestMove }
  | { kind: 'close'; serviceId: string; number: number; reason: 'closed' | 'merged' | 'removed' }
  /** Closes every live preview (the source stopped previewing, or the service went). */
  | { kind: 'close-all'; serviceId: string }
  | { kind: 'approve'; serviceId: string; number: number; headCommit: string }
  /** Closes every preview whose time has come. */
  | { kind: 'expire'; serviceId: string; now: string }
  | { kind: 'torn-down'; serviceId: string; number: number; previewServiceId: string };

/** The refusal of a pull request the service's previews have no room for. */
export const previewLimitReached = (limit: number) =>
  conflict(`This service has its ${limit} previews already: close one first`, {
    reason: 'preview-limit',
    limit,
  });

/** `<name>-pr-<n>`, then `-2`, `-3`… when it reopens: a slug of at most 80 characters. */
export function previewServiceName(serviceName: string, number: number, times: number): string {
  const suffix = `-pr-${number}${times > 1 ? `-${times}` : ''}`;
  // Cut where it may, but never leaving `--pr-` (a name ends with a letter or digit).
  return `${serviceName.slice(0, 80 - suffix.length).replace(/[-._]+$/, '')}${suffix}`;
}

const closed = (serviceId: string, number: number, reason: PreviewClosed['reason']) =>
  PreviewClosed({ serviceId, number, reason });
type PreviewClosed = Parameters<typeof PreviewClosed>[0];

/**
 * A service's pull-request previews on the stream `service-previews-<serviceId>`, one per open
 * pull request. A fork's commits are anyone's code: each waits for an approval before anything
 * of it is built, and a push to the fork waits again. A push moves the preview to the new commit
 * and renews its time to live; the limit counts waiting previews too, so forks cannot crowd the
 * service's own out unnoticed. Closing what is not live records nothing; a closed preview is
 * remembered until its service is torn down.
 */
export const previewsDecider: Decider<PreviewsState, PreviewCommand> = {
  initialState: () => ({ live: {}, closing: {}, opened: {} }),
  evolve(state, event) {
    const live = (n: number, change: Partial<LivePreview>) =>
      state.live[n]
        ? { ...state, live: { ...state.live, [n]: { ...state.live[n], ...change } } }
        : state;
    if (event.type === PreviewOpened.type) {
      const d = PreviewOpened.dataOf(event);
      return {
        ...state,
        live: {
          ...state.live,
          [d.number]: {
            number: d.number,
            provider: d.provider,
            author: d.author,
            title: d.title,
            headCommit: d.headCommit,
            fromFork: d.fromFork,
            awaitingApproval: d.awaitingApproval,
            domain: d.domain,
            previewServiceId: d.previewServiceId,
            previewServiceName: d.previewServiceName,
            expiresAt: d.expiresAt,
          },
        },
        opened: { ...state.opened, [d.number]: (state.opened[d.number] ?? 0) + 1 },
      };
    }
    if (event.type === PreviewUpdated.type) {
      const { number, headCommit, expiresAt, awaitingApproval } = PreviewUpdated.dataOf(event);
      return live(number, { headCommit, expiresAt, awaitingApproval });
    }
    if (event.type === PreviewApproved.type) {
      const { number, headCommit } = PreviewApproved.dataOf(event);
      return state.live[number]?.headCommit === headCommit
        ? live(number, { awaitingApproval: false })
        : state;
    }
    if (event.type === PreviewClosed.type) {
      const { number } = PreviewClosed.dataOf(event);
      const gone = state.live[number];
      if (!gone) return state;
      const rest = { ...state.live };
      delete rest[number];
      const { previewServiceId, previewServiceName } = gone;
      return {
        ...state,
        live: rest,
        closing: { ...state.closing, [previewServiceId]: { number, previewServiceName } },
      };
    }
    if (event.type === PreviewTornDown.type) {
      const { previewServiceId } = PreviewTornDown.dataOf(event);
      if (!state.closing[previewServiceId]) return state;
      const rest = { ...state.closing };
      delete rest[previewServiceId];
      return { ...state, closing: rest };
    }
    return state;
  },
  decide(command, state): PendingEvent[] {
    switch (command.kind) {
      case 'move': {
        const { limit, serviceName, ...pr } = command.pr;
        const current = state.live[pr.number];
        if (current) {
          if (current.headCommit === pr.headCommit) return [];
          return [
            PreviewUpdated({
              serviceId: pr.serviceId,
              number: pr.number,
              headCommit: pr.headCommit,
              expiresAt: pr.expiresAt,
              awaitingApproval: current.fromFork,
            }),
          ];
        }
        const open = Object.keys(state.live).length;
        if (open >= limit) throw previewLimitReached(limit);
        const times = (state.opened[pr.number] ?? 0) + 1;
        return [
          PreviewOpened({
            ...pr,
            previewServiceName: previewServiceName(serviceName, pr.number, times),
            awaitingApproval: pr.fromFork,
          }),
        ];
      }
      case 'approve': {
        const current = state.live[command.number];
        if (!current) throw notFound(`No open preview of pull request ${command.number}`);
        if (!current.awaitingApproval) return [];
        const { serviceId, number, headCommit } = command;
        // What is approved is the commit the person looked at: a push since waits for its own.
        if (current.headCommit !== headCommit)
          throw conflict(
            `Pull request ${number} is at ${current.headCommit.slice(0, 12)} now, not ${headCommit.slice(0, 12)}: look at it again`,
            { headCommit: current.headCommit },
          );
        return [PreviewApproved({ serviceId, number, headCommit })];
      }
      case 'close':
        return state.live[command.number]
          ? [closed(command.serviceId, command.number, command.reason)]
          : [];
      case 'close-all':
        return Object.values(state.live).map((p) => closed(command.serviceId, p.number, 'removed'));
      case 'expire':
        return Object.values(state.live)
          .filter((p) => p.expiresAt <= command.now)
          .map((p) => closed(command.serviceId, p.number, 'expired'));
      case 'torn-down': {
        const { serviceId, number, previewServiceId } = command;
        return state.closing[previewServiceId]?.number === number
          ? [PreviewTornDown({ serviceId, number, previewServiceId })]
          : [];
      }
    }
  },
};
