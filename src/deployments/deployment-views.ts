import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import type { ServerDoc } from '../../projections/servers.projection.js';
import type { ServiceDoc } from '../../projections/services.projection.js';
import { maskEnv } from './env-vars.js';

/** Read answers: no credential, no ciphertext or digest, secret env values masked. */
export function deploymentView(d: DeploymentDoc) {
  const { snapshot, ...rest } = d;
  delete (rest as Record<string, unknown>)._position;
  return {
    ...rest,
    snapshot: { ...snapshot, env: maskEnv(snapshot.env) },
  };
}

export function deploymentSummary(d: DeploymentDoc) {
  return {
    id: d.id,
    serviceId: d.serviceId,
    serviceName: d.serviceName,
    environment: d.environment,
    imageRef: d.imageRef,
    status: d.status,
    trigger: d.trigger,
    requestedBy: d.requestedBy,
    createdAt: d.createdAt,
    startedAt: d.startedAt,
    finishedAt: d.finishedAt,
    rollbackOf: d.rollbackOf,
    failureReason: d.failureReason,
    failedStep: d.failedStep,
  };
}

export function serverView(s: ServerDoc) {
  return {
    id: s.id,
    name: s.name,
    projectId: s.projectId ?? 'default',
    host: s.host,
    sshPort: s.sshPort,
    sshUser: s.sshUser,
    hostKeyFingerprint: s.hostKeyFingerprint,
    hostKeyApproved: s.hostKeyApproved,
    labels: s.labels,
    status: s.status,
    registeredAt: s.registeredAt,
    updatedAt: s.updatedAt ?? null,
    decommissionedAt: s.decommissionedAt ?? null,
    composePolicy: s.composePolicy ?? { allow: [], setAt: null, setBy: null },
    lastCheck: s.lastCheck ?? null,
  };
}

export function serviceView(s: ServiceDoc) {
  return {
    id: s.id,
    name: s.name,
    projectId: s.projectId ?? 'default',
    environment: s.environment,
    serverId: s.serverId,
    imageRepository: s.imageRepository,
    env: maskEnv(s.env),
    approvalRule: s.approvalRule,
    healthCheckUrl: s.healthCheckUrl,
    backupCommand: s.backupCommand,
    restoreCommand: s.restoreCommand ?? null,
    currentImage: s.currentImage,
    currentDeploymentId: s.currentDeploymentId,
    registeredAt: s.registeredAt,
    updatedAt: s.updatedAt,
    status: s.status ?? 'active',
    archivedAt: s.archivedAt ?? null,
    routes: s.routes ?? [],
    /** The git repository it follows (nothing sealed: no token, no private key), or null. */
    gitSource: s.gitSource ?? null,
    /** For a pull request's preview: the service it previews and the request's number. */
    preview: s.preview ?? null,
  };
}

export type DeploymentView = ReturnType<typeof deploymentView>;
export type DeploymentSummary = ReturnType<typeof deploymentSummary>;
export type ServerView = ReturnType<typeof serverView>;
export type ServiceView = ReturnType<typeof serviceView>;
