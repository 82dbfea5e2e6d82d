import { defineEvent } from '../eventstore/define-event.js';

// Server lifecycle, on the server's stream (`server-<sha256(name)>`, or the legacy `fleet`).
/** Connection settings changed; absent fields are unchanged. The new key is sealed. */
export const ServerUpdated = defineEvent<{
  serverId: string;
  changes: {
    labels?: Record<string, string>;
    sshUser?: string;
    sshPort?: number;
    credentialCiphertext?: string;
  };
}>('ServerUpdated', 1);

/**
 * A new host key fingerprint is pinned (the server was rebuilt, its key rotated): the server is
 * `pending-host-key` again until `approveServerHostKey` repeats the new fingerprint.
 */
export const ServerHostKeyRepinned = defineEvent<{
  serverId: string;
  fingerprint: string;
  previousFingerprint: string;
}>('ServerHostKeyRepinned', 1);

/** The server is out of service: nothing is deployed to it any more. Its history stays. */
export const ServerDecommissioned = defineEvent<{ serverId: string }>('ServerDecommissioned', 1);

/**
 * A service targets this server (registered on it, or moved to it): decided on the server's
 * stream, so a registration and a decommissioning of the same server are ordered there.
 */
export const ServerServiceAttached = defineEvent<{ serverId: string; serviceId: string }>(
  'ServerServiceAttached',
  1,
);

/** The service no longer targets this server (archived, moved away, or never registered). */
export const ServerServiceDetached = defineEvent<{ serverId: string; serviceId: string }>(
  'ServerServiceDetached',
  1,
);

// Service lifecycle, on the service's stream (`service-<sha256(env/name)>`, or legacy `catalog`).
/** The service is archived: its history stays, no new deployments or changes are accepted. */
export const ServiceArchived = defineEvent<{ serviceId: string; composeDown: boolean }>(
  'ServiceArchived',
  1,
);

/**
 * On the service's deployments stream (`service-deployments-<id>`), written by archiving before
 * `ServiceArchived`: the queue takes no trigger and starts nothing from here on. Archiving and
 * triggering are decided on this one stream, so of two concurrent commands one sees the other.
 */
export const ServiceDeploymentsClosed = defineEvent<{ serviceId: string }>(
  'ServiceDeploymentsClosed',
  1,
);

/**
 * `docker compose --project-name <service>-<environment> down` ran on the service's server after
 * archiving (asked for with `composeDown`); `ok` false with the exit code when it failed.
 */
export const ServiceComposeDownRan = defineEvent<{
  serviceId: string;
  serverId: string;
  ok: boolean;
  exitCode: number | null;
  failure: string | null;
}>('ServiceComposeDownRan', 1);
