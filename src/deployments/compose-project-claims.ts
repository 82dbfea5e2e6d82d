import { Inject, Injectable } from '@nestjs/common';
import type { ServiceDoc } from '../../projections/services.projection.js';
import { conflict } from '../common/app-error.js';
import { composeProjectStream } from '../events/deployments.events.js';
import type { RequestContext } from '../kernel/request-context.js';
import { readAll } from '../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { composeProject } from './compose-project.js';
import {
  composeProjectClaimDecider,
  projectTakenMessage,
} from './compose-project-claim.decider.js';

const ENVIRONMENT = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Claims of compose project names, each on the name's own stream (composeProjectClaimDecider). */
@Injectable()
export class ComposeProjectClaims {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  /** Claims the project a new service's name and environment map to; 409 if another has it. */
  async claim(name: string, environment: string, serviceId: string, ctx: RequestContext) {
    const project = composeProject(name, environment);
    await this.assertNotRegisteredBefore(project, serviceId);
    await this.run('claim', project, serviceId, ctx);
  }

  async release(name: string, environment: string, serviceId: string, ctx: RequestContext) {
    await this.run('release', composeProject(name, environment), serviceId, ctx);
  }

  /**
   * Services registered before projects were claimed hold no claim: the read model names them.
   * (Their set no longer grows, so the read model's lag cannot let two new services through:
   * between new ones the claim decides.) The environments a project can end with are few.
   */
  private async assertNotRegisteredBefore(project: string, serviceId: string): Promise<void> {
    const environments = new Set(
      [...project.matchAll(/-/g)]
        .map((dash) => project.slice(dash.index + 1))
        .filter((e) => ENVIRONMENT.test(e)),
    );
    const services = this.reads.collection<ServiceDoc>('services');
    for (const environment of environments) {
      const same = await readAll(services, { environment });
      if (same.some((s) => s.id !== serviceId && composeProject(s.name, s.environment) === project))
        throw conflict(projectTakenMessage(project), { project });
    }
  }

  private run(kind: 'claim' | 'release', project: string, serviceId: string, ctx: RequestContext) {
    return this.runner.run(
      composeProjectStream(project),
      composeProjectClaimDecider,
      { kind, name: project, serviceId },
      ctx,
      50,
    );
  }
}
