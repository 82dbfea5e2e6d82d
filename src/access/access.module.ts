import { ProjectOfTarget } from './project-of-target.js';
import { ProjectStandings } from './project-standings.js';
import { Module } from '@nestjs/common';
import { SecurityModule } from '../security/security.module.js';
import { AccessService } from './access.service.js';
import { CREDENTIAL_VERIFIER } from './authenticated-identity.js';
import { CredentialWatch } from './credential-watch.js';
import { CreateAgentHandler } from './commands/create-agent.js';
import { CreateTokenHandler } from './commands/create-token.js';
import { GenerateAgentTokenHandler } from './commands/generate-agent-token.js';
import { InvalidatePrincipalHandler } from './commands/invalidate-principal.js';
import { RevokeTokenHandler } from './commands/revoke-token.js';
import { RotateTokenHandler } from './commands/rotate-token.js';
import { PrincipalLookup } from './principal-lookup.js';
import { AgentsHandler } from './queries/agents.js';
import { TokensHandler } from './queries/tokens.js';
import { ViewerHandler } from './queries/viewer.js';
import { StoredCredentialVerifier } from './stored-credential.verifier.js';
import { TokenMinter } from './token-minter.js';

@Module({
  imports: [SecurityModule],
  providers: [
    AccessService,
    CredentialWatch,
    StoredCredentialVerifier,
    { provide: CREDENTIAL_VERIFIER, useExisting: StoredCredentialVerifier },
    PrincipalLookup,
    TokenMinter,
    ViewerHandler,
    AgentsHandler,
    CreateAgentHandler,
    GenerateAgentTokenHandler,
    CreateTokenHandler,
    TokensHandler,
    RevokeTokenHandler,
    RotateTokenHandler,
    InvalidatePrincipalHandler,
    ProjectStandings,
    ProjectOfTarget,
  ],
  exports: [
    ProjectStandings,
    AccessService,
    CredentialWatch,
    StoredCredentialVerifier,
    SecurityModule,
    PrincipalLookup,
  ],
})
export class AccessModule {}
