import type { ICommandHandler } from '@nestjs/cqrs';
import { servicePreviewsStream } from '../../../events/previews.events.js';
import { Procedure } from '../../../kernel/procedure.js';
import { ProcedureCommand } from '../../../kernel/procedure-message.js';
import { OPERATORS } from '../../../kernel/roles.js';
import { DeciderRunner } from '../../../storage/decider-runner.js';
import { StreamFacts } from '../../facts/stream-facts.js';
import { previewsDecider } from './preview.decider.js';
import { ApprovePreviewInput } from './preview-number.input.js';

export interface ApprovedPreviewAnswer {
  serviceId: string;
  number: number;
  /** The commit let through: the pull request's head when it was approved. */
  headCommit: string;
  /** False when it was not waiting (approved before, or not from a fork). */
  approved: boolean;
}

export class ApproveServicePreview extends ProcedureCommand<
  ApprovePreviewInput,
  ApprovedPreviewAnswer
> {}

/**
 * Lets a fork's pull request be built and previewed at the head commit the person approving looked
 * at: its code, its Dockerfile and its compose definition are anyone's, so a person who may
 * decide approvals looks first; a push since is refused, and a later push waits again.
 */
@Procedure.command(ApproveServicePreview, {
  name: 'approveServicePreview',
  roles: OPERATORS,
  scopes: ['approvals:decide'],
  input: ApprovePreviewInput,
  description:
    'Lets a pull request from a fork be built and previewed at the head commit you looked at (`{serviceId, number, headCommit}`; 409 if it moved since); a later push to it waits for approval again.',
  project: { service: 'serviceId' },
})
export class ApproveServicePreviewHandler implements ICommandHandler<ApproveServicePreview> {
  constructor(
    private readonly facts: StreamFacts,
    private readonly runner: DeciderRunner,
  ) {}

  async execute({ input, ctx }: ApproveServicePreview): Promise<ApprovedPreviewAnswer> {
    const service = await this.facts.service(input.serviceId);
    const decision = await this.runner.run(
      servicePreviewsStream(service.id),
      previewsDecider,
      {
        kind: 'approve',
        serviceId: service.id,
        number: input.number,
        headCommit: input.headCommit,
      },
      ctx,
    );
    return {
      serviceId: service.id,
      number: input.number,
      headCommit: decision.state.live[input.number].headCommit,
      approved: decision.events.length > 0,
    };
  }
}
