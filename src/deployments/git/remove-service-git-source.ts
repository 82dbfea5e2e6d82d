import type { ICommandHandler } from '@nestjs/cqrs';
import { serviceGitStream } from '../../events/git-sources.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { ServiceIdInput } from '../queries/service-details.js';
import { gitSourceDecider } from './git-source.decider.js';

export class RemoveServiceGitSource extends ProcedureCommand<
  ServiceIdInput,
  { serviceId: string; removed: boolean }
> {}

/** The service no longer follows a repository; its sealed deploy key and token go with it. */
@Procedure.command(RemoveServiceGitSource, {
  name: 'removeServiceGitSource',
  roles: OPERATORS,
  scopes: ['service:write'],
  input: ServiceIdInput,
  description:
    'Stops a service following its git repository (its deploy key and token are dropped); removing none changes nothing.',
  project: { service: 'serviceId' },
})
export class RemoveServiceGitSourceHandler implements ICommandHandler<RemoveServiceGitSource> {
  constructor(
    private readonly facts: StreamFacts,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({
    input,
    ctx,
  }: RemoveServiceGitSource): Promise<{ serviceId: string; removed: boolean }> {
    const service = await this.facts.service(input.serviceId);
    const decision = await this.runner.run(
      serviceGitStream(service.id),
      gitSourceDecider,
      { kind: 'remove', serviceId: service.id },
      ctx,
    );
    return { serviceId: service.id, removed: decision.events.length > 0 };
  }
}
