import { Inject, Injectable } from '@nestjs/common';
import type { SecurityPolicyDoc } from '../../projections/security-policy.projection.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import type { MfaPolicy } from '../events/security.events.js';

export interface CurrentPolicy {
  policy: MfaPolicy;
  setAt: string | null;
  setBy: string | null;
  /** Humans sign in through an identity provider only (owners keep password + TOTP). */
  ssoRequired: boolean;
}

/** The team security policy as the projection holds it; MFA optional and SSO not required until set. */
@Injectable()
export class SecurityPolicyReader {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async current(): Promise<CurrentPolicy> {
    const doc = await this.reads.collection<SecurityPolicyDoc>('security_policy').get('team');
    return doc
      ? {
          policy: doc.policy,
          setAt: doc.setAt,
          setBy: doc.setBy,
          ssoRequired: doc.ssoRequired === true,
        }
      : { policy: 'optional', setAt: null, setBy: null, ssoRequired: false };
  }
}
