import { Module } from '@nestjs/common';
import { SecurityModule } from '../security/security.module.js';
import { AccessProcedures } from './access.procedures.js';
import { AccessService } from './access.service.js';
import { CREDENTIAL_VERIFIER } from './authenticated-identity.js';
import { CredentialWatch } from './credential-watch.js';
import { CreateAgentHandler } from './commands/create-agent.handler.js';
import { CreateTokenHandler } from './commands/create-token.handler.js';
import { GenerateAgentTokenHandler } from './commands/generate-agent-token.handler.js';
import { InvalidatePrincipalHandler } from './commands/invalidate-principal.handler.js';
import { RevokeTokenHandler } from './commands/revoke-token.handler.js';
import { RotateTokenHandler } from './commands/rotate-token.handler.js';
import { PrincipalLookup } from './principal-lookup.js';
import { StoredCredentialVerifier } from './stored-credential.verifier.js';
import { TokenMinter } from './token-minter.js';
import { ListPrincipalsHandler } from './principals.query.js';
import { ListTokensHandler } from './tokens.query.js';

@Module({
  imports: [SecurityModule],
  providers: [
    AccessService,
    CredentialWatch,
    StoredCredentialVerifier,
    { provide: CREDENTIAL_VERIFIER, useExisting: StoredCredentialVerifier },
    PrincipalLookup,
    TokenMinter,
    AccessProcedures,
    CreateAgentHandler,
    GenerateAgentTokenHandler,
    CreateTokenHandler,
    RevokeTokenHandler,
    RotateTokenHandler,
    InvalidatePrincipalHandler,
    ListTokensHandler,
    ListPrincipalsHandler,
  ],
  exports: [
    AccessService,
    CredentialWatch,
    StoredCredentialVerifier,
    SecurityModule,
    PrincipalLookup,
    ListPrincipalsHandler,
  ],
})
export class AccessModule {}
