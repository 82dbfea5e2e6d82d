import { createHash } from 'node:crypto';
import { defineEvent } from '../eventstore/define-event.js';

// Stream `domain-<sha256(domain)>`: which service a domain is routed to, fleet-wide. A service
// claims a domain before its routes name it and releases it when they stop naming it (or when
// the service is archived), so two services never route the same domain.
export const DomainClaimed = defineEvent<{ domain: string; serviceId: string }>('DomainClaimed', 1);
export const DomainReleased = defineEvent<{ domain: string; serviceId: string }>(
  'DomainReleased',
  1,
);

// Stream `server-edge-<serverId>`: each time Slipway brought a server's edge proxy to the
// configuration its events derive (or failed to), and why it did.
export const ServerEdgeSynced = defineEvent<{
  serverId: string;
  /** SHA-256 of the configuration loaded (or that failed to load). */
  configSha256: string;
  routes: number;
  /** What the sync had to do: start the proxy, load a changed configuration, nothing. */
  actions: string[];
  reason: EdgeSyncReason;
  ok: boolean;
  failure: string | null;
}>('ServerEdgeSynced', 1);

export type EdgeSyncReason = 'manual' | 'routes' | 'deployment' | 'watch';

export const domainStream = (domain: string) =>
  `domain-${createHash('sha256').update(domain.toLowerCase()).digest('hex')}`;
export const serverEdgeStream = (serverId: string) => `server-edge-${serverId}`;

/** The containers that answer for one routed compose service. */
export interface EdgeUpstream {
  service: string;
  /** Container names on the edge network. */
  containers: string[];
  /** Their addresses on the edge network, in the same order: what the proxy dials. */
  addresses?: string[];
}

// Stream `service-edge-<serviceId>`: the containers the edge proxy sends each routed compose
// service's traffic to, switched by a gapless deployment once its new containers were healthy
// and answered. Until a service has one, the proxy dials the compose service's edge alias.
export const EdgeUpstreamsSwitched = defineEvent<{
  serviceId: string;
  serverId: string;
  deploymentId: string;
  upstreams: EdgeUpstream[];
}>('EdgeUpstreamsSwitched', 1);

export const serviceEdgeStream = (serviceId: string) => `service-edge-${serviceId}`;
