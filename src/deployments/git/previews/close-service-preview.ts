import type { ICommandHandler } from '@nestjs/cqrs';
import { servicePreviewsStream } from '../../../events/previews.events.js';
import { Procedure } from '../../../kernel/procedure.js';
import { ProcedureCommand } from '../../../kernel/procedure-message.js';
import { OPERATORS } from '../../../kernel/roles.js';
import { DeciderRunner } from '../../../storage/decider-runner.js';
import { StreamFacts } from '../../facts/stream-facts.js';
import { previewsDecider } from './preview.decider.js';
import { PreviewNumberInput } from './preview-number.input.js';

export class CloseServicePreview extends ProcedureCommand<
  PreviewNumberInput,
  { serviceId: string; number: number; closed: boolean }
> {}

/** Closes a preview before its pull request is: it is torn down as if the request closed. */
@Procedure.command(CloseServicePreview, {
  name: 'closeServicePreview',
  roles: OPERATORS,
  scopes: ['service:write'],
  input: PreviewNumberInput,
  description:
    'Closes a pull request’s preview (`{serviceId, number}`): its service is archived and its containers removed; closing one that is not open changes nothing. A later push to the pull request opens it again.',
  project: { service: 'serviceId' },
})
export class CloseServicePreviewHandler implements ICommandHandler<CloseServicePreview> {
  constructor(
    private readonly facts: StreamFacts,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ input, ctx }: CloseServicePreview) {
    const service = await this.facts.service(input.serviceId);
    const decision = await this.runner.run(
      servicePreviewsStream(service.id),
      previewsDecider,
      { kind: 'close', serviceId: service.id, number: input.number, reason: 'removed' },
      ctx,
    );
    return { serviceId: service.id, number: input.number, closed: decision.events.length > 0 };
  }
}
