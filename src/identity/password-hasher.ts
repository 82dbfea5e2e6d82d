import { Inject, Injectable } from '@nestjs/common';
import argon2 from 'argon2';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import { isSealedSecret, type SecretBox } from '../secrets/secret-box.js';

/** argon2id with OWASP's recommended minimum cost (19 MiB, 2 passes, 1 lane). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Password hashes as events record them: the argon2id hash sealed with the service key, so that
 * neither the events, nor the read models, nor an audit export hand out a hash anyone could try
 * passwords against offline. Hashes recorded in clear before sealing are still verified.
 */
@Injectable()
export class PasswordHasher {
  /** Verified against when the email is unknown, so both answers take about as long. */
  private readonly dummy = argon2.hash('slipway-dummy-password-for-timing', OPTIONS);

  constructor(@Inject(SECRET_BOX) private readonly box: SecretBox) {}

  async hash(password: string): Promise<string> {
    return this.box.seal(await argon2.hash(password, OPTIONS));
  }

  async verify(stored: string | null, password: string): Promise<boolean> {
    try {
      if (stored === null) {
        await argon2.verify(await this.dummy, password);
        return false;
      }
      return await argon2.verify(isSealedSecret(stored) ? this.box.open(stored) : stored, password);
    } catch {
      return false;
    }
  }
}
