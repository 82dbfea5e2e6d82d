import type { ApprovalRule, RecordedEnvVar } from '../src/events/deployments.events.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import type { Projection } from './projection.js';

/**
 * `services`: `{id, name, environment, serverId, imageRepository, compose, env (secret values
 * sealed), approvalRule, healthCheckUrl, backupCommand, currentImage, currentDeploymentId,
 * registeredAt, updatedAt}`. `currentImage` follows the last succeeded deployment.
 */
export interface ServiceDoc extends Doc {
  name: string;
  environment: string;
  serverId: string;
  imageRepository: string;
  compose: string;
  env: RecordedEnvVar[];
  approvalRule: ApprovalRule;
  healthCheckUrl: string | null;
  backupCommand: string | null;
  currentImage: string | null;
  currentDeploymentId: string | null;
  registeredAt: string;
  updatedAt: string;
}

export const servicesProjection: Projection = {
  name: 'services',
  version: 1,
  collections: [
    { name: 'services', indexes: [{ fields: ['name', 'environment'] }, { fields: ['serverId'] }] },
  ],
  handlers: {
    ServiceRegistered: [
      {
        collection: 'services',
        documentId: (e) => String(e.data.serviceId),
        evolve: (_c, e): ServiceDoc => ({
          id: String(e.data.serviceId),
          name: String(e.data.name),
          environment: String(e.data.environment),
          serverId: String(e.data.serverId),
          imageRepository: String(e.data.imageRepository),
          compose: String(e.data.compose),
          env: e.data.env as RecordedEnvVar[],
          approvalRule: e.data.approvalRule as ApprovalRule,
          healthCheckUrl: (e.data.healthCheckUrl as string | null) ?? null,
          backupCommand: (e.data.backupCommand as string | null) ?? null,
          currentImage: null,
          currentDeploymentId: null,
          registeredAt: e.recordedAt,
          updatedAt: e.recordedAt,
        }),
      },
    ],
    ServiceUpdated: [
      {
        collection: 'services',
        documentId: (e) => String(e.data.serviceId),
        evolve: (c, e) =>
          c ? { ...c, ...(e.data.changes as object), updatedAt: e.recordedAt } : null,
      },
    ],
    DeploymentSucceeded: [
      {
        collection: 'services',
        documentId: (e) => String(e.data.serviceId),
        evolve: (c, e) =>
          c
            ? {
                ...c,
                currentImage: String(e.data.imageRef),
                currentDeploymentId: String(e.data.deploymentId),
              }
            : null,
      },
    ],
  },
};
