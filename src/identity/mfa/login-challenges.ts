import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/clock.js';

interface Challenge {
  userId: string;
  expiresAt: number;
  failures: number;
}

export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_MAX_FAILURES = 5;

/**
 * The step between a correct password and the second factor. Kept in memory only: it lives
 * five minutes, dies after five wrong codes, and a restart merely asks the user to log in again.
 */
@Injectable()
export class LoginChallenges {
  private readonly open = new Map<string, Challenge>();

  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  issue(userId: string): string {
    this.sweep();
    const value = randomBytes(32).toString('base64url');
    this.open.set(digest(value), {
      userId,
      expiresAt: this.clock.now().getTime() + CHALLENGE_TTL_MS,
      failures: 0,
    });
    return value;
  }

  /** The user the challenge belongs to, or null when it is unknown, expired or used up. */
  userOf(value: string): string | null {
    const key = digest(value);
    const challenge = this.open.get(key);
    if (!challenge) return null;
    if (challenge.expiresAt <= this.clock.now().getTime()) {
      this.open.delete(key);
      return null;
    }
    return challenge.userId;
  }

  fail(value: string): void {
    const key = digest(value);
    const challenge = this.open.get(key);
    if (challenge && ++challenge.failures >= CHALLENGE_MAX_FAILURES) this.open.delete(key);
  }

  consume(value: string): void {
    this.open.delete(digest(value));
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, c] of this.open) if (c.expiresAt <= now) this.open.delete(key);
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
