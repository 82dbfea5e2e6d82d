import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { SubjectKeyVault } from './subject-key-vault.js';
import { ERASED, isSealedPersonal, type SealedPersonal } from '../events/personal-value.js';

export const SUBJECT_KEY_VAULT = Symbol('SUBJECT_KEY_VAULT');

const ANONYMOUS_PREFIX = 'anonymous-';
/** Opened values kept in memory: every authenticated call reveals its principal's name. */
const REVEALED_CACHE_SIZE = 2_000;

/**
 * Crypto-shredding for personal data in events (emails, names, client addresses): each value
 * is sealed under its subject's key; `erase` deletes the key, after which every such value in
 * every event reads as `[erased]`. The events, and so the audit hash chain, never change.
 */
@Injectable()
export class PersonalData {
  /**
   * Ciphertext → plaintext, bounded, oldest dropped first. Emptied by `erase`, by retention and
   * whenever any process sharing the keys erased one, so an erased value is never served from it.
   */
  private readonly revealed = new Map<string, string>();

  constructor(
    @Inject(SUBJECT_KEY_VAULT) private readonly vault: SubjectKeyVault,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  /**
   * A keyed digest to find a record by a personal value (an email at sign-in) without storing
   * the value in clear. It survives erasure but reveals nothing without the service key.
   */
  lookupDigest(kind: string, value: string): string {
    return this.box.digest(`${kind}:${value}`);
  }

  /** The subject an event's client address is sealed under: the acting user, else the month. */
  addressSubject(actorKind: string, principalId: string | null): string {
    return actorKind === 'user' && principalId ? `user-${principalId}` : this.anonymousSubject();
  }

  /** Seals `value` under `subject`'s key; null stays null. An erased subject stores nothing. */
  async protect(subject: string, value: string | null): Promise<SealedPersonal | null> {
    if (value === null) return null;
    const key = await this.vault.keyFor(subject);
    if (!key) return { pii: 1, subject, ct: '' };
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return {
      pii: 1,
      subject,
      ct: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url'),
    };
  }

  /**
   * The readable value: plaintext from events written before sealing existed, the decrypted
   * value, or `[erased]` once the subject's key is gone.
   */
  async reveal(value: unknown): Promise<string | null> {
    if (value === null || value === undefined) return null;
    if (typeof value === 'string') return value;
    if (!isSealedPersonal(value)) return null;
    // Plaintexts kept are dropped with the keys when another replica may have erased one.
    if (await this.vault.refresh()) this.revealed.clear();
    const cacheKey = `${value.subject}\u0000${value.ct}`;
    const known = this.revealed.get(cacheKey);
    if (known !== undefined) return known;
    const key = await this.vault.existingKey(value.subject);
    if (!key || value.ct === '') return ERASED;
    try {
      const raw = Buffer.from(value.ct, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
      return this.remember(cacheKey, plain.toString('utf8'));
    } catch {
      return ERASED;
    }
  }

  private remember(cacheKey: string, plain: string): string {
    if (this.revealed.size >= REVEALED_CACHE_SIZE) {
      this.revealed.delete(this.revealed.keys().next().value as string);
    }
    this.revealed.set(cacheKey, plain);
    return plain;
  }

  async erase(subject: string): Promise<boolean> {
    const erased = await this.vault.erase(subject, this.clock.now());
    // Emptied once the key is gone, so a value opened while the erasure ran is not kept either.
    this.revealed.clear();
    return erased;
  }

  isErased(subject: string): Promise<boolean> {
    return this.vault.isErased(subject);
  }

  /** Subject of a client address with no known principal: one key per month, for retention. */
  anonymousSubject(): string {
    return `${ANONYMOUS_PREFIX}${this.clock.now().toISOString().slice(0, 7)}`;
  }

  /**
   * Retention: deletes the monthly keys of anonymous client addresses older than `months`
   * whole months (0 keeps them). Returns the months erased.
   */
  async expireAnonymous(months: number): Promise<string[]> {
    if (months <= 0) return [];
    const now = this.clock.now();
    const cutoff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
    const oldest = cutoff.toISOString().slice(0, 7);
    const expired = (await this.vault.liveSubjects(ANONYMOUS_PREFIX)).filter(
      (s) => s.slice(ANONYMOUS_PREFIX.length) < oldest,
    );
    for (const subject of expired) await this.vault.erase(subject, now);
    if (expired.length > 0) this.revealed.clear();
    return expired;
  }
}
