import { TeamRoster } from './team-roster.js';
import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { AuthController } from './auth.controller.js';
import { FirstRun } from './first-run.js';
import { ChangeUserRoleHandler } from './commands/change-user-role.js';
import { DeactivateUserHandler } from './commands/deactivate-user.js';
import { LogInHandler } from './commands/log-in.handler.js';
import { LogOutHandler } from './commands/log-out.handler.js';
import { SignUpHandler } from './commands/sign-up.handler.js';
import { VerifyLoginHandler } from './commands/verify-login.handler.js';
import {
  RequestPasswordResetHandler,
  ResetPasswordHandler,
} from './commands/password-reset.handlers.js';
import { Throttle } from './login/throttle.js';
import { AcceptInviteHandler } from './invites/invite-use.handlers.js';
import { InviteMemberHandler } from './invites/invite-member.js';
import { InvitesHandler } from './invites/invites.js';
import { RevokeInviteHandler } from './invites/revoke-invite.js';
import { LoginAttempts } from './login/login-attempts.js';
import { LoginDevices } from './login/login-devices.js';
import { LoginChallenges } from './mfa/login-challenges.js';
import { MfaCodes } from './mfa/mfa-codes.js';
import { ConfirmMfaEnrollmentHandler } from './mfa/confirm-mfa-enrollment.js';
import { MfaGuardRails } from './mfa/mfa-guard-rails.js';
import { DisableMfaHandler } from './mfa/disable-mfa.js';
import { RotateRecoveryCodesHandler } from './mfa/rotate-recovery-codes.js';
import { StartMfaEnrollmentHandler } from './mfa/start-mfa-enrollment.js';
import { Totp } from './mfa/totp.js';
import { PasswordHasher } from './password-hasher.js';
import { MembersHandler } from './queries/members.js';
import { SessionStarter } from './session-starter.js';
import { SessionTerminator } from './session-terminator.js';
import { ConfigureIdentityProviderHandler } from './sso/configure-identity-provider.js';
import { IdentityProvidersHandler } from './sso/identity-providers.js';
import { OidcClients } from './sso/oidc-clients.js';
import { RemoveIdentityProviderHandler } from './sso/remove-identity-provider.js';
import { SsoController } from './sso/sso.controller.js';
import { SsoMembers } from './sso/sso-members.js';
import { SsoProtocol } from './sso/sso-protocol.js';
import { SsoRefusals } from './sso/sso-refusals.js';
import { SsoSignInHandler } from './sso/sso-sign-in.handler.js';
import { SsoRequirement } from './sso/sso-requirement.js';

@Module({
  imports: [AccessModule],
  controllers: [AuthController, SsoController],
  providers: [
    FirstRun,
    PasswordHasher,
    TeamRoster,
    Totp,
    MfaCodes,
    MfaGuardRails,
    LoginChallenges,
    VerifyLoginHandler,
    Throttle,
    LoginAttempts,
    LoginDevices,
    RequestPasswordResetHandler,
    ResetPasswordHandler,
    StartMfaEnrollmentHandler,
    ConfirmMfaEnrollmentHandler,
    RotateRecoveryCodesHandler,
    DisableMfaHandler,
    SessionStarter,
    SessionTerminator,
    SignUpHandler,
    LogInHandler,
    LogOutHandler,
    ChangeUserRoleHandler,
    DeactivateUserHandler,
    MembersHandler,
    InviteMemberHandler,
    RevokeInviteHandler,
    AcceptInviteHandler,
    InvitesHandler,
    ConfigureIdentityProviderHandler,
    RemoveIdentityProviderHandler,
    IdentityProvidersHandler,
    OidcClients,
    SsoProtocol,
    SsoMembers,
    SsoRefusals,
    SsoSignInHandler,
    SsoRequirement,
  ],
})
export class IdentityModule {}
