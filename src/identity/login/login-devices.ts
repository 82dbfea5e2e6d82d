import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { parse as parseCookies } from 'cookie';
import type { CookieOptions, Request, Response } from 'express';
import { CLOCK, type Clock } from '../../common/clock.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';

export const DEVICE_COOKIE = 'slipway_device';
const LIFETIME_MS = 180 * 24 * 3_600_000;
const FORMAT = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([0-9a-f]{64})$/;
const OPTIONS: CookieOptions = {
  httpOnly: true,
  secure: true,
  sameSite: 'strict',
  // Only the sign-in routes ever read it.
  path: '/api/auth',
};

/**
 * The device cookie a browser gets when it signs in to an account: `<issued>.<id>.<mac>`, the
 * MAC keyed with the key derived for device cookies alone, over the account, the time and a random id. It proves that this
 * browser signed in to that account before (so it is known there), holds no secret of the
 * account, and needs no server state, so it outlives restarts. Valid 180 days.
 */
@Injectable()
export class LoginDevices {
  constructor(
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Gives the browser a device cookie for this account. */
  remember(res: Response, userId: string): void {
    const issued = Math.floor(this.clock.now().getTime() / 1000);
    const id = randomBytes(16).toString('base64url');
    res.cookie(DEVICE_COOKIE, `${issued}.${id}.${this.mac(userId, issued, id)}`, {
      ...OPTIONS,
      maxAge: LIFETIME_MS,
    });
  }

  /** The raw cookie value, if the request carries one (checked later, against the account). */
  presented(req: Request): string | null {
    const header = req.header('cookie');
    if (!header || header.length > 8192) return null;
    return parseCookies(header)[DEVICE_COOKIE] ?? null;
  }

  /** The device's id when `value` is a live device cookie of this account, else null. */
  verify(userId: string, value: string | null): string | null {
    const match = value ? FORMAT.exec(value) : null;
    if (!match) return null;
    const [, issuedText, id, mac] = match;
    const issued = Number(issuedText);
    const ageMs = this.clock.now().getTime() - issued * 1000;
    if (ageMs < 0 || ageMs > LIFETIME_MS) return null;
    const expected = Buffer.from(this.mac(userId, issued, id), 'hex');
    return timingSafeEqual(expected, Buffer.from(mac, 'hex')) ? id : null;
  }

  private mac(userId: string, issued: number, id: string): string {
    return this.box.mac('login-device', `login-device:v1:${userId}:${issued}:${id}`);
  }
}
