import type { ICommandHandler } from '@nestjs/cqrs';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { ImageOperations, type ImageChange } from './image-operations.js';
import { removeReference, ServerImageInput } from './image-inputs.js';

export class RemoveServerImage extends ProcedureCommand<ServerImageInput, ImageChange> {}

@Procedure.command(RemoveServerImage, {
  name: 'removeServerImage',
  roles: DEPLOYERS,
  scopes: ['server:write'],
  input: ServerImageInput,
  description: 'Removes an image (reference or ID) from a server (`docker image rm`); recorded.',
  project: { server: 'serverId' },
})
export class RemoveServerImageHandler implements ICommandHandler<RemoveServerImage> {
  constructor(private readonly operations: ImageOperations) {}

  execute({ input, ctx }: RemoveServerImage): Promise<ImageChange> {
    const reference = removeReference(input.reference);
    const args = ['docker', 'image', 'rm', '--', reference];
    return this.operations.change(input.serverId, 'remove', reference, args, ctx);
  }
}
