import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CreateTokenInput } from '../access.inputs.js';
import { PrincipalLookup } from '../principal-lookup.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { TokenMinter, type MintedToken } from '../token-minter.js';

export class CreateTokenCommand extends Command<MintedToken> {
  constructor(
    readonly input: CreateTokenInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

/** A token for the caller's own user principal, narrowed to the scopes asked for. */
@CommandHandler(CreateTokenCommand)
export class CreateTokenHandler implements ICommandHandler<CreateTokenCommand> {
  constructor(
    private readonly lookup: PrincipalLookup,
    private readonly minter: TokenMinter,
  ) {}

  async execute({ input, ctx }: CreateTokenCommand): Promise<MintedToken> {
    const principal = await this.lookup.principal(ctx.principal!.id);
    return this.minter.mint(
      {
        principal,
        name: input.tokenName,
        scopes: input.scopes,
        expiresInDays: input.expiresInDays,
      },
      ctx,
    );
  }
}
