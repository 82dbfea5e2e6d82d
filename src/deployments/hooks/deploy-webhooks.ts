import { ServicesInProjects } from '../services-in-projects.js';
import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { DeployHookDoc } from '../../../projections/deploy-hooks.projection.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { READ_STORE, type Page, type ReadStore } from '../../readstore/read-store.port.js';
import { readPage } from '../../readstore/read-page.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { ServicePageInput } from '../service-page.input.js';
import { DeployHooks, type DeployHookView } from './deploy-hooks.js';

export class DeployWebhooks extends ProcedureQuery<ServicePageInput, Page<DeployHookView>> {}

/** Hooks, newest first; of one service when it is named (which must exist). Never secrets. */
@Procedure.read(DeployWebhooks, {
  name: 'deployWebhooks',
  roles: EVERYONE,
  scopes: ['service:read'],
  projectList: true,
  input: ServicePageInput,
  description: 'Deploy hooks (URL, rules, status), newest first; never their secrets.',
  project: { service: 'serviceId' },
})
export class DeployWebhooksHandler implements IQueryHandler<DeployWebhooks> {
  constructor(
    private readonly inProjects: ServicesInProjects,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly lookup: DeploymentLookup,
    private readonly hooks: DeployHooks,
  ) {}

  async execute({ input, ctx }: DeployWebhooks): Promise<Page<DeployHookView>> {
    if (input.serviceId) await this.lookup.service(input.serviceId);
    const filter = await this.inProjects.filter(ctx.readableProjects, input.serviceId);
    return readPage(
      this.reads.collection<DeployHookDoc>('deploy_hooks'),
      { filter, sort: { createdAt: -1 }, defaultLimit: 50 },
      input,
      (d) => this.hooks.view(d),
    );
  }
}
