import { Injectable } from '@nestjs/common';
import { AppError, attributed } from '../../common/app-error.js';
import { userStream } from '../../events/identity.events.js';
import { BreakGlassSignIn } from '../../events/sso.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { SecurityPolicyReader } from '../../security/security-policy.reader.js';
import { EventWriter } from '../../storage/event-writer.js';

const ssoRequired = (message: string) =>
  new AppError('FORBIDDEN', message, {
    requiredScopes: [],
    grantedScopes: [],
    rule: 'sso-required',
  });

/**
 * The team policy "single sign-on required": humans sign in through an identity provider.
 * Owners keep password plus TOTP as break-glass, recorded (`BreakGlassSignIn`) and notified.
 */
@Injectable()
export class SsoRequirement {
  constructor(
    private readonly policies: SecurityPolicyReader,
    private readonly writer: EventWriter,
  ) {}

  /** After the password checked out: refused unless SSO is optional or this is an owner with MFA. */
  async assertPasswordSignIn(userId: string, role: string, mfaEnrolled: boolean): Promise<void> {
    if (!(await this.policies.current()).ssoRequired) return;
    if (role !== 'owner') {
      throw attributed(
        ssoRequired('The team requires single sign-on: sign in through your identity provider'),
        userId,
      );
    }
    if (!mfaEnrolled) {
      throw attributed(
        ssoRequired(
          'The team requires single sign-on; an owner signs in with a password only with two-factor authentication',
        ),
        userId,
      );
    }
  }

  /** Joining with a password (sign-up, an invite link) while SSO is required. */
  async assertPasswordJoin(): Promise<void> {
    if ((await this.policies.current()).ssoRequired) {
      throw ssoRequired(
        'The team requires single sign-on: join by signing in through your identity provider',
      );
    }
  }

  /** An owner's password + TOTP sign-in while SSO is required goes on the trail and out. */
  async recordBreakGlass(userId: string, role: string, ctx: RequestContext): Promise<void> {
    if (role !== 'owner' || !(await this.policies.current()).ssoRequired) return;
    await this.writer.append(userStream(userId), [BreakGlassSignIn({ userId })], 'any', ctx);
  }
}
