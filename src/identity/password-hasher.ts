import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/** argon2id with OWASP's recommended minimum cost (19 MiB, 2 passes, 1 lane). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class PasswordHasher {
  /** Verified against when the email is unknown, so both answers take about as long. */
  private readonly dummy = argon2.hash('slipway-dummy-password-for-timing', OPTIONS);

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    try {
      if (hash === null) {
        await argon2.verify(await this.dummy, password);
        return false;
      }
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}
