import { Inject, Injectable } from '@nestjs/common';
import type { Configuration } from 'openid-client';
import { openId } from './openid-library.js';
import type { IdentityProviderSettings } from '../../events/sso.events.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { SsoRefusal } from './sso-refusal.js';

/** How long a discovered configuration (endpoints, keys' address) is reused. */
const KEEP_MS = 10 * 60_000;
/** Seconds any one request to a provider may take. */
const REQUEST_TIMEOUT_S = 10;

interface Kept {
  key: string;
  at: number;
  config: Promise<Configuration>;
}

/**
 * The openid-client configuration of each provider, from its discovery document. Discovery
 * checks that the document names the configured issuer; a failed discovery is not kept.
 */
@Injectable()
export class OidcClients {
  private readonly kept = new Map<string, Kept>();

  constructor(@Inject(SECRET_BOX) private readonly box: SecretBox) {}

  configuration(settings: IdentityProviderSettings): Promise<Configuration> {
    const key = `${settings.issuer}\n${settings.clientId}\n${settings.sealedClientSecret}`;
    const found = this.kept.get(settings.providerId);
    if (found && found.key === key && Date.now() - found.at < KEEP_MS) return found.config;
    const config = this.discover(settings);
    const entry = { key, at: Date.now(), config };
    this.kept.set(settings.providerId, entry);
    config.catch(() => {
      if (this.kept.get(settings.providerId) === entry) this.kept.delete(settings.providerId);
    });
    return config;
  }

  private async discover(settings: IdentityProviderSettings): Promise<Configuration> {
    const issuer = new URL(settings.issuer);
    const oidc = await openId();
    try {
      return await oidc.discovery(
        issuer,
        settings.clientId,
        { client_secret: this.box.open(settings.sealedClientSecret) },
        undefined,
        {
          // ID tokens are verified against the provider's keys even though they come straight
          // from its token endpoint: a tampered one never passes. http is accepted for
          // loopback issuers only (checked when configured).
          execute: [
            oidc.enableNonRepudiationChecks,
            ...(issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : []),
          ],
          timeout: REQUEST_TIMEOUT_S,
        },
      );
    } catch (error) {
      const mismatch = error instanceof Error && /issuer/i.test(error.message);
      throw new SsoRefusal(
        mismatch ? 'issuer-mismatch' : 'provider-unreachable',
        settings.providerId,
      );
    }
  }
}
