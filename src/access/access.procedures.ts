import { Injectable } from '@nestjs/common';
import { ListPrincipalsHandler } from './principals.query.js';
import { LegacyProcedure as Procedure } from '../kernel/procedure.js';
import { CreateAgentHandler, CreateAgentInput } from './commands/create-agent.handler.js';
import { CreateTokenHandler, CreateTokenInput } from './commands/create-token.handler.js';
import {
  GenerateAgentTokenHandler,
  GenerateAgentTokenInput,
} from './commands/generate-agent-token.handler.js';
import {
  InvalidatePrincipalHandler,
  InvalidatePrincipalInput,
} from './commands/invalidate-principal.handler.js';
import { RevokeTokenHandler, TokenIdInput } from './commands/revoke-token.handler.js';
import { RotateTokenHandler, RotateTokenInput } from './commands/rotate-token.handler.js';
import { PageInput } from './page.input.js';
import { describeCaller } from './describe-caller.js';
import type { RequestContext } from '../kernel/request-context.js';
import { ListTokensHandler, TokensInput } from './tokens.query.js';
import { EVERYONE, ADMINS } from '../kernel/roles.js';

@Injectable()
export class AccessProcedures {
  constructor(
    private readonly createAgentHandler: CreateAgentHandler,
    private readonly createTokenHandler: CreateTokenHandler,
    private readonly generateAgentTokenHandler: GenerateAgentTokenHandler,
    private readonly invalidatePrincipalHandler: InvalidatePrincipalHandler,
    private readonly listPrincipalsHandler: ListPrincipalsHandler,
    private readonly listTokensHandler: ListTokensHandler,
    private readonly revokeTokenHandler: RevokeTokenHandler,
    private readonly rotateTokenHandler: RotateTokenHandler,
  ) {}

  @Procedure.read({
    name: 'viewer',
    roles: EVERYONE,
    scopes: [],
    mfaExempt: true,
    description:
      'The calling identity: principal, auth method, effective scopes, token metadata, session.',
  })
  viewer(_input: undefined, ctx: RequestContext) {
    return describeCaller(ctx);
  }

  @Procedure.read({
    name: 'agents',
    roles: ADMINS,
    scopes: ['members:read'],
    input: PageInput,
    description: 'Agent principals, oldest first.',
  })
  agents(input: PageInput) {
    return this.listPrincipalsHandler.execute('agent', input.limit ?? 50, input.cursor);
  }

  @Procedure.command({
    name: 'createAgent',
    roles: ADMINS,
    scopes: ['members:manage'],
    input: CreateAgentInput,
    description: 'Creates an agent principal with a preset (default agent:read-only).',
  })
  createAgent(input: CreateAgentInput, ctx: RequestContext) {
    return this.createAgentHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'generateAgentToken',
    roles: ADMINS,
    scopes: ['tokens:manage'],
    input: GenerateAgentTokenInput,
    description:
      'Mints an expiring token, within your own scopes, for an agent whose creator ranks no higher than you; the value is returned once.',
  })
  generateAgentToken(input: GenerateAgentTokenInput, ctx: RequestContext) {
    return this.generateAgentTokenHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'createToken',
    roles: ADMINS,
    scopes: ['tokens:manage'],
    input: CreateTokenInput,
    description:
      "Mints a token for the caller's own user, within the presenting credential's scopes; shown once.",
  })
  createToken(input: CreateTokenInput, ctx: RequestContext) {
    return this.createTokenHandler.execute(input, ctx);
  }

  @Procedure.read({
    name: 'tokens',
    roles: ADMINS,
    scopes: ['tokens:read'],
    input: TokensInput,
    description: 'API token metadata (never values), newest first, optionally for one principal.',
  })
  tokens(input: TokensInput) {
    return this.listTokensHandler.execute(input.principalId, input.limit ?? 50, input.cursor);
  }

  @Procedure.command({
    name: 'revokeToken',
    roles: ADMINS,
    scopes: ['tokens:manage'],
    input: TokenIdInput,
    description:
      'Revokes a token of a principal ranked no higher than you; refused everywhere once this answers.',
  })
  revokeToken(input: TokenIdInput, ctx: RequestContext) {
    return this.revokeTokenHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'rotateToken',
    roles: ADMINS,
    scopes: ['tokens:manage'],
    input: RotateTokenInput,
    description:
      'Mints a replacement of your own token or of an agent’s you may manage; the old one is refused after overlapMinutes.',
  })
  rotateToken(input: RotateTokenInput, ctx: RequestContext) {
    return this.rotateTokenHandler.execute(input, ctx);
  }

  @Procedure.command({
    name: 'invalidatePrincipal',
    roles: ADMINS,
    scopes: ['members:manage'],
    input: InvalidatePrincipalInput,
    description:
      'Refuses every token of a principal ranked no higher than you from now on (TOKEN_INVALIDATED).',
  })
  invalidatePrincipal(input: InvalidatePrincipalInput, ctx: RequestContext) {
    return this.invalidatePrincipalHandler.execute(input, ctx);
  }
}
