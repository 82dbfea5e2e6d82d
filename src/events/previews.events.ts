import { defineEvent } from '../eventstore/define-event.js';

/** A pull request's preview, as recorded when it opened or moved. */
export type PreviewData = {
  serviceId: string;
  /** The pull (merge) request's number in its repository. */
  number: number;
  headCommit: string;
  /** The branch the pull request proposes, as the provider names it (not trusted as a ref). */
  headRef: string;
  /** Opened from another repository than the source's: it waits for an approval. */
  fromFork: boolean;
  author: string | null;
  title: string | null;
  /** `pr-<number>.<preview base domain>`. */
  domain: string;
  /** When it is torn down if nothing moves it (its time to live from the last push). */
  expiresAt: string;
};

// Stream `service-previews-<serviceId>`: the previews of one service, one per open pull request.
export const PreviewOpened = defineEvent<PreviewData & { awaitingApproval: boolean }>(
  'PreviewOpened',
  1,
);
export const PreviewUpdated = defineEvent<{
  serviceId: string;
  number: number;
  headCommit: string;
  expiresAt: string;
}>('PreviewUpdated', 1);
/** A fork's preview let through by someone who may decide approvals. */
export const PreviewApproved = defineEvent<{ serviceId: string; number: number }>(
  'PreviewApproved',
  1,
);
export const PreviewClosed = defineEvent<{
  serviceId: string;
  number: number;
  reason: 'closed' | 'merged' | 'expired' | 'removed';
}>('PreviewClosed', 1);

export const servicePreviewsStream = (serviceId: string) => `service-previews-${serviceId}`;
