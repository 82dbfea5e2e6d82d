import { Module } from '@nestjs/common';
import { AccountSecurityStatusHandler } from './account-security-status.js';
import { SecurityPolicyReader } from './security-policy.reader.js';
import { UpdateAccountSecurityPolicyHandler } from './update-account-security-policy.js';

/** The team's security policy (MFA): its procedures and the reader the access checks use. */
@Module({
  providers: [
    AccountSecurityStatusHandler,
    UpdateAccountSecurityPolicyHandler,
    SecurityPolicyReader,
  ],
  exports: [SecurityPolicyReader],
})
export class SecurityModule {}
