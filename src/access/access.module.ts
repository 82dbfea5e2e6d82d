import { Module } from '@nestjs/common';
import { AccessService } from './access.service.js';
import { CREDENTIAL_VERIFIER } from './authenticated-identity.js';
import { NoCredentialsVerifier } from './no-credentials.verifier.js';

@Module({
  providers: [AccessService, { provide: CREDENTIAL_VERIFIER, useClass: NoCredentialsVerifier }],
  exports: [AccessService],
})
export class AccessModule {}
