import { Inject, Injectable } from '@nestjs/common';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import type { EdgeUpstream } from '../../events/edge.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import type { LocalStep } from '../deployment-step.js';
import type { SshSession } from '../ssh-session.js';
import { EdgeProxy, type EdgeSyncOutcome } from './edge-proxy.js';
import { gaplessServices, newContainers } from './gapless-steps.js';

const describe = (outcome: EdgeSyncOutcome) =>
  `edge proxy: ${outcome.routes} routes, ${outcome.actions.length ? outcome.actions.join(', ') : 'unchanged'}`;

/**
 * The control plane's steps of a routed deployment: syncing the server's edge proxy before the
 * new version starts, switching its upstreams to the new containers at once, without a reload
 * (recorded by the proxy's sync as EdgeUpstreamsSwitched, the event its configuration derives
 * from), and the drain before the old ones are retired. Each answers the lines it adds to the deployment's log.
 */
@Injectable()
export class EdgeCutover {
  constructor(
    private readonly edge: EdgeProxy,
    private readonly lookup: DeploymentLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(
    step: LocalStep,
    deployment: DeploymentDoc,
    outputs: ReadonlyMap<string, string[]>,
    ctx: RequestContext,
    signal: AbortSignal,
    session: SshSession,
  ): Promise<string[]> {
    if (step.local === 'drain') return this.drain(signal);
    const upstreams = newContainers(outputs.get('start-new') ?? []);
    if (step.local === 'switch') return this.switchTo(deployment, upstreams, ctx, session);
    if (step.local === 'unpin') {
      // Routed services this deployment recreated in place (their containers now carry the
      // edge alias) go back to being dialled by it, as soon as they were recreated: their
      // pinned addresses were the containers compose just replaced.
      const gapless = gaplessServices(deployment);
      const service = await this.lookup.service(deployment.serviceId);
      const pinned = Object.keys(service.upstreams ?? {}).filter(
        (s) => !gapless.includes(s) && service.upstreams?.[s]?.length,
      );
      if (!pinned.length) return ['no recreated service was pinned'];
      const byAlias = pinned.map((s) => ({ service: s, containers: [] }));
      return this.switchTo(deployment, byAlias, ctx, session);
    }
    const { serviceId, serverId } = deployment;
    const synced = await this.edge.sync(serverId, 'deployment', ctx, {
      serviceId,
      upstreams: [],
      session,
    });
    return [describe(synced)];
  }

  private async switchTo(
    deployment: DeploymentDoc,
    upstreams: EdgeUpstream[],
    ctx: RequestContext,
    session: SshSession,
  ): Promise<string[]> {
    const { serviceId, serverId } = deployment;
    const switching = { serviceId, upstreams, session, deploymentId: deployment.id };
    const outcome = await this.edge.sync(serverId, 'deployment', ctx, switching);
    return [
      ...upstreams.map(
        (u) => `${u.service} → ${u.containers.length ? u.containers.join(', ') : 'its edge alias'}`,
      ),
      describe(outcome),
    ];
  }

  private async drain(signal: AbortSignal): Promise<string[]> {
    const seconds = this.config.edge.drainSeconds;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, seconds * 1000);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    return [`waited ${seconds} s for requests in flight to the old containers`];
  }
}
