import { defineEvent } from '../eventstore/define-event.js';
import type { RecordedEnvVar, RouteTls } from './deployments.events.js';

/** Which pushed refs a service's git source deploys: the first rule that matches decides. */
export type GitRefRule = {
  kind: 'branch' | 'tag';
  /** Glob over the branch or tag name: `*` matches any run of characters, `/` included. */
  pattern: string;
  /** `deploy`: at once; `approval`: queued behind the service's approval; `ignore`: nothing. */
  action: 'deploy' | 'approval' | 'ignore';
};

/** How Slipway reads the repository. Sealed parts never leave the event store unsealed. */
export type GitSourceData = {
  serviceId: string;
  /** As given: `git@host:path`, `ssh://[user@]host[:port]/path` or `https://host/path`. */
  repository: string;
  transport: 'ssh' | 'https';
  host: string;
  port: number;
  /** The repository host's SSH host key (SHA256:…), pinned as servers' host keys are. */
  hostKeyFingerprint: string | null;
  auth: 'deploy-key' | 'token' | 'none';
  /** The key pair Slipway generated for an SSH source: public part shown, private part sealed. */
  deployKey: { publicKey: string; fingerprint: string; privateKeyCiphertext: string } | null;
  /** An HTTPS access token, sealed, with the user name it is presented under. */
  token: { username: string; ciphertext: string } | null;
  rules: GitRefRule[];
  /** Where the build's context is in the repository, and its Dockerfile within that context. */
  contextPath: string;
  dockerfile: string;
  /**
   * A compose file in the repository that each commit's deployment runs (its own, at that
   * commit) instead of the service's compose definition; absent or null: the service's.
   */
  composeFile?: string | null;
  /**
   * The secret push deliveries are signed with (GitHub, Gitea) or carry (GitLab), sealed; absent
   * in sources set before push webhooks existed (set the source again to get one).
   */
  webhookSecretCiphertext?: string | null;
  /**
   * Where deployments of the source's commits report their state (pending, success, failure)
   * as commit statuses: the provider's API, and an API token, sealed. Absent or null: nowhere.
   */
  commitStatus?: CommitStatusTarget | null;
  /** The registered server that builds (absent or null: the service's own server). */
  buildServerId?: string | null;
  /**
   * The built image is pushed to the service's image repository, and the service's server pulls
   * it; otherwise a build server's image is copied to it (`docker save` | `docker load`).
   */
  pushImage?: boolean;
  /** Pull requests get preview environments this way; absent or null: none. */
  previews?: PreviewSettings | null;
};

/** How a source's pull requests are previewed, each as a service of its own. */
export type PreviewSettings = {
  /** Each preview is served on `pr-<number>.<baseDomain>`. */
  baseDomain: string;
  /** The compose service the preview's domain goes to, and its container port. */
  service: string;
  port: number;
  tls: RouteTls;
  /** The most previews the service has at once (those waiting for an approval count). */
  limit: number;
  /** A preview nothing pushed to for this long is torn down. */
  ttlHours: number;
  /** The previews' own variables (secret values sealed): the service's are never given. */
  env: RecordedEnvVar[];
  /** Limits put on each of a preview's containers; null: none. */
  memoryMb: number | null;
  cpus: number | null;
};

export type CommitStatusTarget = {
  provider: 'github' | 'gitlab' | 'gitea';
  /** The API's base, e.g. `https://api.github.com`, `https://gitlab.com/api/v4`. */
  apiUrl: string;
  tokenCiphertext: string;
};

// Stream `service-git-<serviceId>`: the repository a service follows, set and replaced whole,
// or removed.
export const ServiceGitSourceSet = defineEvent<GitSourceData>('ServiceGitSourceSet', 1);
export const ServiceGitSourceRemoved = defineEvent<{ serviceId: string }>(
  'ServiceGitSourceRemoved',
  1,
);

export const serviceGitStream = (serviceId: string) => `service-git-${serviceId}`;

// Stream `git-push-delivery-<serviceId>-<sha256 of the body>`: a push delivery claimed once, so
// the same delivery sent again (a replay, or the provider's redelivery) deploys nothing more.
export const GitPushDeliveryClaimed = defineEvent<{
  serviceId: string;
  digest: string;
  deliveryId: string;
  provider: 'github' | 'gitlab' | 'gitea';
  ref: string;
  commit: string;
}>('GitPushDeliveryClaimed', 1);

export const gitPushDeliveryStream = (serviceId: string, digest: string) =>
  `git-push-delivery-${serviceId}-${digest}`;

/** A push Slipway acted on: where it moved the ref from (null: it created it) and to. */
export type GitPushAcceptedData = {
  serviceId: string;
  /** The repository the source followed, as set. */
  repository: string;
  ref: string;
  before: string | null;
  after: string;
  deliveryId: string;
  provider: 'github' | 'gitlab' | 'gitea';
};

// Stream `git-ref-<serviceId>-<sha256 of the repository's host/path and the ref>`: the pushes of
// one ref of the repository a service follows that Slipway acted on, in the order it took them,
// so a delivery the provider sends late cannot move the service back to a commit the ref has
// moved past.
export const GitPushAccepted = defineEvent<GitPushAcceptedData>('GitPushAccepted', 1);

export const gitRefStream = (serviceId: string, refDigest: string) =>
  `git-ref-${serviceId}-${refDigest}`;
