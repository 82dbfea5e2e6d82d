import { defineEvent } from '../eventstore/define-event.js';

/** A pull request's preview, as recorded when it opened. */
export type PreviewData = {
  serviceId: string;
  /** The pull (merge) request's number in its repository. */
  number: number;
  provider: 'github' | 'gitlab' | 'gitea';
  headCommit: string;
  /** The branch the pull request proposes, as the provider names it (not trusted as a ref). */
  headRef: string;
  /** Opened from another repository than the source's: each of its commits waits for approval. */
  fromFork: boolean;
  author: string | null;
  title: string | null;
  /** `pr-<number>.<preview base domain>`. */
  domain: string;
  /** The service it runs as: registered with this id and name when it is first deployed. */
  previewServiceId: string;
  previewServiceName: string;
  /** When it is torn down if nothing moves it (its time to live from the last push). */
  expiresAt: string;
};

// Stream `service-previews-<serviceId>`: the previews of one service, one per open pull request.
export const PreviewOpened = defineEvent<PreviewData & { awaitingApproval: boolean }>(
  'PreviewOpened',
  1,
);
/** A push to the pull request; a fork's new commit waits for an approval again. */
export const PreviewUpdated = defineEvent<{
  serviceId: string;
  number: number;
  headCommit: string;
  expiresAt: string;
  awaitingApproval: boolean;
}>('PreviewUpdated', 1);
/** A fork's commit let through by someone who may decide approvals. */
export const PreviewApproved = defineEvent<{
  serviceId: string;
  number: number;
  headCommit: string;
}>('PreviewApproved', 1);
export const PreviewClosed = defineEvent<{
  serviceId: string;
  number: number;
  reason: 'closed' | 'merged' | 'expired' | 'removed';
}>('PreviewClosed', 1);
/** A closed preview's service archived and its containers removed from the server. */
export const PreviewTornDown = defineEvent<{
  serviceId: string;
  number: number;
  previewServiceId: string;
}>('PreviewTornDown', 1);

export const servicePreviewsStream = (serviceId: string) => `service-previews-${serviceId}`;
