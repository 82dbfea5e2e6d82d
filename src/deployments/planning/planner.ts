import { Injectable } from '@nestjs/common';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { ComposePolicyGuard } from '../compose-policy/compose-policy.guard.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { reportFor } from '../reach/connection-report.js';
import { ServerReach } from '../reach/server-reach.js';
import { validateCompose } from '../compose.js';
import { judgingVariables, type VariableEntry } from '../compose-reading/compose-variables.js';
import { fail, type PreflightCheck } from './plan.js';
import { composePolicyCheck, reachabilityCheck } from './preflight-checks.js';
import { deploySteps } from './strategy-checks.js';

/** What a deployment of a service without routes does on its server. */
export const DEPLOY_STEPS = deploySteps('', [], []);

/**
 * What the plans share. The planning lane previews from the read models only; nothing is
 * appended. The one look outside them is `server-reachable`: a key exchange with the server (no
 * login, nothing run).
 */
@Injectable()
export class Planner {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly policy: ComposePolicyGuard,
    private readonly reach: ServerReach,
  ) {}

  /** The server, or null for its checks to say it is missing. */
  async serverOrNull(id: string): Promise<ServerDoc | null> {
    return (await this.lookup.reads.collection<ServerDoc>('servers').get(id)) ?? null;
  }

  /** Deployments of the service queued or running (the plan's queue check). */
  async activeCount(serviceId: string): Promise<number> {
    return this.lookup.reads
      .collection('deployments')
      .count({ serviceId, status: { $in: ['queued', 'running'] } });
  }

  /** The compose policy check, when there is a server to hold the compose to. */
  /**
   * The server's compose policy on the definition. A definition that cannot be read is not
   * judged, and the check says so: a plan never says a check passed that it did not run.
   */
  policyChecks(
    compose: string,
    server: ServerDoc | null,
    env: readonly VariableEntry[],
  ): PreflightCheck[] {
    if (!server) return [];
    if (!validateCompose(compose, judgingVariables(env)).ok)
      return [
        fail('compose-policy', 'not judged: the compose definition is not valid (compose-valid)'),
      ];
    return [composePolicyCheck(this.policy.refusals(compose, server, env), server)];
  }

  /** Does SSH answer with the pinned host key (unless server checks are off)? */
  async reachability(server: ServerDoc | null, ctx: RequestContext): Promise<PreflightCheck[]> {
    if (!server) return [];
    if (!this.reach.enabled) return [reachabilityCheck(null)];
    return [reachabilityCheck(reportFor(await this.reach.check(server, 'handshake'), ctx))];
  }
}
