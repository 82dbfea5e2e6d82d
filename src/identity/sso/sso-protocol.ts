import { Inject, Injectable } from '@nestjs/common';
import type { Configuration } from 'openid-client';
import { openId } from './openid-library.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { identityProviderStream, type IdentityProviderSettings } from '../../events/sso.events.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { identityProviderDecider } from './identity-provider.decider.js';
import { OidcClients } from './oidc-clients.js';
import { refusalReasonOf } from './oidc-errors.js';
import { amrOf } from './provider-mfa.js';
import { SsoRefusal } from './sso-refusal.js';
import { TRANSACTION_MS, type CliHandoff, type SsoTransaction } from './sso-transaction.js';

/** The person the provider vouched for, from a verified ID token (and its userinfo). */
export interface VerifiedPerson {
  settings: IdentityProviderSettings;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  amr: string[];
  /** The ID token's claims over the userinfo's: what the role mapping reads. */
  claims: Record<string, unknown>;
}

export const SSO_CALLBACK_PATH = '/api/auth/sso/callback';

/**
 * The OpenID Connect authorization code flow with PKCE, `state` and `nonce`, through
 * openid-client: the address to send a person to, and the verified answer that comes back.
 */
@Injectable()
export class SsoProtocol {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly clients: OidcClients,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  get redirectUri(): string {
    return `${this.config.publicUrl}${SSO_CALLBACK_PATH}`;
  }

  /** The provider as configured now, if it accepts sign-ins. */
  async enabledProvider(providerId: string): Promise<IdentityProviderSettings> {
    const { settings } = await this.runner.load(
      identityProviderStream(providerId),
      identityProviderDecider,
    );
    if (!settings) throw new SsoRefusal('unknown-provider', providerId);
    if (!settings.enabled) throw new SsoRefusal('provider-disabled', providerId);
    return settings;
  }

  async start(
    providerId: string,
    returnTo: string,
    cli: CliHandoff | null,
  ): Promise<{ url: URL; transaction: SsoTransaction }> {
    const settings = await this.enabledProvider(providerId);
    const config = await this.clients.configuration(settings);
    const oidc = await openId();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const transaction: SsoTransaction = {
      providerId,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
      returnTo,
      cli,
      expiresAt: this.clock.now().getTime() + TRANSACTION_MS,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: transaction.state,
      nonce: transaction.nonce,
    });
    return { url, transaction };
  }

  /** Checks the callback against the transaction, redeems the code and verifies the ID token. */
  async finish(callback: URL, tx: SsoTransaction): Promise<VerifiedPerson> {
    const settings = await this.enabledProvider(tx.providerId);
    const refuse = (reason: ConstructorParameters<typeof SsoRefusal>[0]) =>
      new SsoRefusal(reason, settings.providerId);
    if (callback.searchParams.get('state') !== tx.state) throw refuse('state-mismatch');
    const config = await this.clients.configuration(settings);
    const oidc = await openId();
    let tokens;
    try {
      tokens = await oidc.authorizationCodeGrant(
        config,
        callback,
        { pkceCodeVerifier: tx.codeVerifier, expectedState: tx.state, expectedNonce: tx.nonce },
        { redirect_uri: this.redirectUri },
      );
    } catch (error) {
      throw refuse(refusalReasonOf(error));
    }
    const idClaims = tokens.claims();
    if (!idClaims) throw refuse('id-token-invalid');
    const info = await this.userInfo(config, tokens.access_token, idClaims.sub, settings);
    const claims: Record<string, unknown> = { ...info, ...idClaims };
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
    return {
      settings,
      subject: idClaims.sub,
      email: email && email.length <= 254 && email.includes('@') ? email : null,
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' ? claims.name.slice(0, 80) : null,
      amr: amrOf(idClaims.amr),
      claims,
    };
  }

  /** The userinfo claims, when the provider has the endpoint; they must be the same subject's. */
  private async userInfo(
    config: Configuration,
    accessToken: string,
    subject: string,
    settings: IdentityProviderSettings,
  ): Promise<Record<string, unknown>> {
    if (!config.serverMetadata().userinfo_endpoint) return {};
    const oidc = await openId();
    try {
      return { ...(await oidc.fetchUserInfo(config, accessToken, subject)) };
    } catch (error) {
      const mismatch = error instanceof Error && /"sub"/.test(error.message);
      throw new SsoRefusal(
        mismatch ? 'subject-mismatch' : refusalReasonOf(error),
        settings.providerId,
      );
    }
  }
}
