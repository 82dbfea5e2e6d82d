import { Inject, Injectable } from '@nestjs/common';
import { generateSecret, generateURI, verify } from 'otplib';
import { CLOCK, type Clock } from '../../common/clock.js';

const CODE = /^\d{6}$/;

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), as authenticator apps expect, on the injected clock. */
@Injectable()
export class Totp {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  newSecret(): string {
    return generateSecret();
  }

  uri(secret: string, account: string): string {
    return generateURI({ issuer: 'Slipway', label: account, secret });
  }

  /** The time step the code belongs to (one step of drift allowed either way), or null. */
  async match(secret: string, code: string): Promise<number | null> {
    if (!CODE.test(code)) return null;
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(this.clock.now().getTime() / 1000),
      epochTolerance: 30,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }
}
