import { Inject, Injectable } from '@nestjs/common';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import { badRequest } from '../../common/app-error.js';
import type { RecordedEnvVar, ServiceRoute } from '../../events/deployments.events.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { ComposePolicyGuard } from '../compose-policy/compose-policy.guard.js';
import { validateCompose } from '../compose.js';
import { judgingVariables, type VariableEntry } from '../compose-reading/compose-variables.js';
import { recordEnv } from '../env-vars.js';
import { AddressGate } from '../reach/address-gate.js';
import { healthUrlShapeProblem } from '../reach/health-check-url.js';
import type { RouteInput } from '../routes/route.input.js';
import { recordRoutes, routeIssues, routeValues } from '../routes/route-rules.js';
import type { EnvVarInput } from './service-settings.input.js';

/**
 * What a service's settings must pass before they are recorded, on registration and update
 * alike (`registerService`, `updateService`), and the form their env vars are recorded in.
 */
@Injectable()
export class ServiceSettingsChecks {
  constructor(
    private readonly gate: AddressGate,
    private readonly policy: ComposePolicyGuard,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  /** The compose definition, read with the service's variables (see judgingVariables). */
  validCompose(compose: string, env: readonly VariableEntry[]): void {
    const result = validateCompose(compose, judgingVariables(env));
    if (!result.ok) throw badRequest('The compose definition is invalid', result.issues);
  }

  /** What the compose definition asks for, the server allows. */
  allowedOn(server: ServerDoc, compose: string, env: readonly VariableEntry[]): void {
    this.policy.enforce(compose, server, env);
  }

  /**
   * The routes as recorded, once they fit the compose definition they will run with (the
   * routed compose services exist and do not publish the routed ports on the host).
   */
  routes(
    routes: RouteInput[] | ServiceRoute[],
    compose: string,
    env: readonly VariableEntry[],
  ): ServiceRoute[] {
    const result = validateCompose(compose, judgingVariables(env));
    if (!result.ok) throw badRequest('The compose definition is invalid', result.issues);
    // Checked in the order given, so each issue names the route the caller sent at its index.
    const issues = routeIssues(routeValues(routes), result.summary);
    if (issues.length) throw badRequest('The routes do not fit the compose definition', issues);
    return recordRoutes(routes);
  }

  /** Only http(s), to a host the server address policy allows (checked again when probed). */
  async healthUrl(url: string | undefined): Promise<void> {
    if (url === undefined) return;
    const problem = healthUrlShapeProblem(url) ?? (await this.gate.refusal(new URL(url).hostname));
    if (problem)
      throw badRequest('The health check URL is refused', [
        { path: 'healthCheckUrl', message: problem },
      ]);
  }

  /** Env vars as recorded: secret values sealed and digested. */
  env(env: EnvVarInput[] | undefined): RecordedEnvVar[] {
    return recordEnv(env, this.box);
  }
}
