import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import type { ServerDoc } from '../../projections/servers.projection.js';
import type { ServiceDoc } from '../../projections/services.projection.js';
import { notFound } from '../common/app-error.js';
import { DEFAULT_PROJECT, placementStream, projectStream } from '../events/projects.events.js';
import { Procedure } from '../kernel/procedure.js';
import { ProcedureCommand } from '../kernel/procedure-message.js';
import { ADMINS } from '../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { placementDecider } from './placement.decider.js';
import { projectDecider } from './project.decider.js';
import { MoveToProjectInput } from './project.input.js';

export class MoveToProject extends ProcedureCommand<
  MoveToProjectInput,
  { kind: 'service' | 'server'; resourceId: string; projectId: string; changed: boolean }
> {}

@Procedure.command(MoveToProject, {
  name: 'moveToProject',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: MoveToProjectInput,
  description:
    'Moves a service or a server to another project: from then on, who may act on it is decided by their role in that project.',
})
export class MoveToProjectHandler implements ICommandHandler<MoveToProject> {
  constructor(
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async execute({ input, ctx }: MoveToProject) {
    const collection = input.kind === 'service' ? 'services' : 'servers';
    const doc = await this.reads
      .collection<ServiceDoc | ServerDoc>(collection)
      .get(input.resourceId);
    if (!doc) throw notFound(`No such ${input.kind}`);
    const project = await this.runner.load(projectStream(input.projectId), projectDecider);
    const decision = await this.runner.run(
      placementStream(input.kind, input.resourceId),
      placementDecider,
      {
        kind: input.kind,
        resourceId: input.resourceId,
        to: input.projectId,
        // Where it was registered: its registration's project, as the read model holds it
        // until the first move, which this stream then records.
        registeredIn: doc.projectId,
        targetExists: project.created || input.projectId === DEFAULT_PROJECT,
      },
      ctx,
    );
    return {
      kind: input.kind,
      resourceId: input.resourceId,
      projectId: input.projectId,
      changed: decision.events.length > 0,
    };
  }
}
