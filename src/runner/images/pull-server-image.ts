import type { ICommandHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { ImageOperations, type ImageChange } from './image-operations.js';
import { pullReference, ServerImageInput } from './image-inputs.js';

export class PullServerImage extends ProcedureCommand<ServerImageInput, ImageChange> {}

@Procedure.command(PullServerImage, {
  name: 'pullServerImage',
  roles: DEPLOYERS,
  scopes: ['server:write'],
  input: ServerImageInput,
  description: 'Pulls an image on a server (`docker pull` over SSH); recorded.',
  project: { server: 'serverId' },
})
export class PullServerImageHandler implements ICommandHandler<PullServerImage> {
  constructor(private readonly operations: ImageOperations) {}

  execute({ input, ctx }: PullServerImage): Promise<ImageChange> {
    const reference = pullReference(input.reference);
    const args = ['docker', 'pull', '--', reference];
    return this.operations.change(input.serverId, 'pull', reference, args, ctx);
  }
}
