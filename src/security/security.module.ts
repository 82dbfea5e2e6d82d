import { Module } from '@nestjs/common';
import { SecurityPolicyReader } from './security-policy.reader.js';
import { SecurityProcedures } from './security.procedures.js';

/** The team's security policy (MFA): its procedures and the reader the access checks use. */
@Module({ providers: [SecurityProcedures, SecurityPolicyReader], exports: [SecurityPolicyReader] })
export class SecurityModule {}
