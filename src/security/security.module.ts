import { Module } from '@nestjs/common';
import { AccountSecurityStatusHandler } from './account-security-status.js';
import { SecurityPolicyReader } from './security-policy.reader.js';
import { UpdateAccountSecurityPolicyHandler } from './update-account-security-policy.js';
import { UpdateSsoPolicyHandler } from './update-sso-policy.js';

/** The team's security policy (MFA, SSO required): its procedures and the reader the access checks use. */
@Module({
  providers: [
    AccountSecurityStatusHandler,
    UpdateAccountSecurityPolicyHandler,
    UpdateSsoPolicyHandler,
    SecurityPolicyReader,
  ],
  exports: [SecurityPolicyReader],
})
export class SecurityModule {}
