import { DEFAULT_PROJECT, ResourceMovedToProject } from '../src/events/projects.events.js';
import {
  DeploymentSucceeded,
  ServiceRegistered,
  ServiceUpdated,
  type ApprovalRule,
  type RecordedEnvVar,
  type ServiceRoute,
  type ServicePreviewOf,
} from '../src/events/deployments.events.js';
import { EdgeUpstreamsSwitched } from '../src/events/edge.events.js';
import {
  ServiceGitSourceRemoved,
  ServiceGitSourceSet,
  type GitSourceData,
  type PreviewSettings,
} from '../src/events/git-sources.events.js';
import { ServiceArchived } from '../src/events/lifecycle.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `services`: `{id, name, environment, serverId, imageRepository, compose, env (secret values
 * sealed), approvalRule, healthCheckUrl, backupCommand, restoreCommand, routes, currentImage,
 * currentDeploymentId, registeredAt, updatedAt, status: "active"|"archived", archivedAt,
 * gitSource, preview}`. `currentImage` follows the
 * last succeeded deployment.
 */
export interface ServiceDoc extends Doc {
  name: string;
  /** The project it belongs to (`default` unless registered in or moved to another). */
  projectId: string;
  environment: string;
  serverId: string;
  imageRepository: string;
  compose: string;
  env: RecordedEnvVar[];
  approvalRule: ApprovalRule;
  healthCheckUrl: string | null;
  backupCommand: string | null;
  restoreCommand?: string | null;
  currentImage: string | null;
  currentDeploymentId: string | null;
  registeredAt: string;
  updatedAt: string;
  /** Absent before version 2: active. */
  status?: 'active' | 'archived';
  archivedAt?: string | null;
  /** What the server's edge proxy routes to the service; absent before routes existed: none. */
  routes?: ServiceRoute[];
  /**
   * Per routed compose service, the containers (their addresses on the edge network, or names)
   * its last gapless deployment switched the edge proxy to; absent: the proxy dials the compose
   * service by its edge alias.
   */
  upstreams?: Record<string, string[]>;
  /** The git repository it follows, without anything sealed; absent or null: none. */
  gitSource?: ServiceGitSourceView | null;
  /** A pull request's preview: the service it previews and the request's number. */
  preview?: ServicePreviewOf | null;
}

/** A service's git source as readers see it: the deploy key's public half, no token. */
export type ServiceGitSourceView = Omit<
  GitSourceData,
  'serviceId' | 'deployKey' | 'token' | 'webhookSecretCiphertext' | 'commitStatus' | 'previews'
> & {
  /** How pull requests are previewed; secret values left out. Absent or null: not at all. */
  previews?: PreviewSettingsView | null;
  deployKey: { publicKey: string; fingerprint: string } | null;
  /** The user name its token is presented under, when it has one. */
  tokenUsername: string | null;
  /** Whether push deliveries can be verified (the source has a webhook secret). */
  webhook?: boolean;
  /** Where deployments report commit statuses (never the token); absent or null: nowhere. */
  commitStatus?: { provider: 'github' | 'gitlab' | 'gitea'; apiUrl: string } | null;
  setAt: string;
};

export type PreviewSettingsView = Omit<PreviewSettings, 'env'> & {
  env: { name: string; secret: boolean; value: string | null }[];
};

function previewSettingsView(settings: PreviewSettings): PreviewSettingsView {
  return {
    ...settings,
    env: settings.env.map((v) => ({
      name: v.name,
      secret: !!v.secretCiphertext,
      value: v.secretCiphertext ? null : v.value,
    })),
  };
}

export const servicesProjection: Projection = {
  name: 'services',
  version: 3,
  collections: [
    {
      name: 'services',
      indexes: [
        { fields: ['projectId'] },
        { fields: ['name', 'environment'] },
        { fields: ['serverId'] },
        { fields: ['registeredAt'] },
      ],
    },
  ],
  handlers: handlersOf(
    on<EventDataOf<typeof ResourceMovedToProject>, ServiceDoc>(ResourceMovedToProject, {
      collection: 'services',
      documentId: (e) => (e.data.kind === 'service' ? e.data.resourceId : null),
      evolve: (c, { data, recordedAt }) =>
        c ? { ...c, projectId: data.to, updatedAt: recordedAt } : null,
    }),
    on<EventDataOf<typeof ServiceRegistered>, ServiceDoc>(ServiceRegistered, {
      collection: 'services',
      documentId: (e) => e.data.serviceId,
      evolve: (_c, { data, recordedAt }) => ({
        id: data.serviceId,
        name: data.name,
        projectId: data.projectId ?? DEFAULT_PROJECT,
        environment: data.environment,
        serverId: data.serverId,
        imageRepository: data.imageRepository,
        compose: data.compose,
        env: data.env,
        approvalRule: data.approvalRule,
        healthCheckUrl: data.healthCheckUrl ?? null,
        backupCommand: data.backupCommand ?? null,
        restoreCommand: data.restoreCommand ?? null,
        routes: data.routes ?? [],
        currentImage: null,
        currentDeploymentId: null,
        registeredAt: recordedAt,
        updatedAt: recordedAt,
        status: 'active',
        archivedAt: null,
        ...(data.preview ? { preview: data.preview } : {}),
      }),
    }),
    on<EventDataOf<typeof ServiceArchived>, ServiceDoc>(ServiceArchived, {
      collection: 'services',
      documentId: (e) => e.data.serviceId,
      evolve: (c, { recordedAt }) =>
        c ? { ...c, status: 'archived', archivedAt: recordedAt, updatedAt: recordedAt } : null,
    }),
    on<EventDataOf<typeof ServiceUpdated>, ServiceDoc>(ServiceUpdated, {
      collection: 'services',
      documentId: (e) => e.data.serviceId,
      evolve: (c, e) => (c ? { ...c, ...e.data.changes, updatedAt: e.recordedAt } : null),
    }),
    on<EventDataOf<typeof ServiceGitSourceSet>, ServiceDoc>(ServiceGitSourceSet, {
      collection: 'services',
      documentId: (e) => e.data.serviceId,
      evolve: (c, { data, recordedAt }) =>
        c
          ? {
              ...c,
              gitSource: {
                repository: data.repository,
                transport: data.transport,
                host: data.host,
                port: data.port,
                hostKeyFingerprint: data.hostKeyFingerprint,
                auth: data.auth,
                deployKey: data.deployKey
                  ? { publicKey: data.deployKey.publicKey, fingerprint: data.deployKey.fingerprint }
                  : null,
                tokenUsername: data.token?.username ?? null,
                webhook: !!data.webhookSecretCiphertext,
                commitStatus: data.commitStatus
                  ? { provider: data.commitStatus.provider, apiUrl: data.commitStatus.apiUrl }
                  : null,
                rules: data.rules,
                contextPath: data.contextPath,
                dockerfile: data.dockerfile,
                composeFile: data.composeFile ?? null,
                buildServerId: data.buildServerId ?? null,
                pushImage: data.pushImage === true,
                previews: data.previews ? previewSettingsView(data.previews) : null,
                setAt: recordedAt,
              },
            }
          : null,
    }),
    on<EventDataOf<typeof ServiceGitSourceRemoved>, ServiceDoc>(ServiceGitSourceRemoved, {
      collection: 'services',
      documentId: (e) => e.data.serviceId,
      evolve: (c) => (c ? { ...c, gitSource: null } : null),
    }),
    on<EventDataOf<typeof EdgeUpstreamsSwitched>, ServiceDoc>(EdgeUpstreamsSwitched, {
      collection: 'services',
      documentId: (e) => e.data.serviceId,
      evolve: (c, e) =>
        c
          ? {
              ...c,
              upstreams: {
                ...c.upstreams,
                ...Object.fromEntries(
                  e.data.upstreams.map((u) => [u.service, u.addresses ?? u.containers]),
                ),
              },
            }
          : null,
    }),
    on<EventDataOf<typeof DeploymentSucceeded>, ServiceDoc>(DeploymentSucceeded, {
      collection: 'services',
      documentId: (e) => e.data.serviceId,
      evolve: (c, e) =>
        c
          ? { ...c, currentImage: e.data.imageRef, currentDeploymentId: e.data.deploymentId }
          : null,
    }),
  ),
};
