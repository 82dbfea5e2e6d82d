import { IsBoolean } from 'class-validator';
import type { ICommandHandler } from '@nestjs/cqrs';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { ImageOperations, type ImageChange } from './image-operations.js';
import { ServerIdInput } from './image-inputs.js';

export class PruneServerImagesInput extends ServerIdInput {
  /** Every image no container uses, not only dangling ones. */
  @Omittable()
  @IsBoolean()
  all?: boolean;
}

export class PruneServerImages extends ProcedureCommand<PruneServerImagesInput, ImageChange> {}

@Procedure.command(PruneServerImages, {
  name: 'pruneServerImages',
  roles: DEPLOYERS,
  scopes: ['server:write'],
  input: PruneServerImagesInput,
  description: 'Removes dangling images (`all`: every unused one) from a server; recorded.',
  project: { server: 'serverId' },
})
export class PruneServerImagesHandler implements ICommandHandler<PruneServerImages> {
  constructor(private readonly operations: ImageOperations) {}

  /** Dangling images, or with `all` every image no container uses. */
  execute({ input, ctx }: PruneServerImages): Promise<ImageChange> {
    const args = ['docker', 'image', 'prune', '--force', ...(input.all ? ['--all'] : [])];
    return this.operations.change(input.serverId, 'prune', null, args, ctx);
  }
}
