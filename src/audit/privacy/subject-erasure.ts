import { Inject, Injectable } from '@nestjs/common';
import type { InviteDoc } from '../../../projections/invites.projection.js';
import type { PrincipalDoc } from '../../../projections/principals.projection.js';
import { inviteSubject } from '../../events/invite.events.js';
import { userSubject } from '../../events/privacy.events.js';
import { MAIL_SENDER, type MailSender } from '../../mail/mail-sender.port.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';

/** What carrying out erasures did this time. */
export interface ErasureReach {
  /** Keys deleted (the users' own and their invites'). */
  keys: number;
  /** Mail files removed. */
  mailFiles: number;
  /** The users for whom anything was left to do. */
  completed: Set<string>;
}

/**
 * Everything a user's erasure reaches besides their own key: the invites that carried their
 * email (sealed under each invite's own key), and the copies of mail sent to them that Slipway
 * keeps. Every step is idempotent, so a recorded erasure can be carried out again at any time
 * (a repeat, or the next start after a crash) and completes whatever was left.
 */
@Injectable()
export class SubjectErasure {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly personal: PersonalData,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
  ) {}

  /** The keys of the invites accepted by `user` or addressed to their email. */
  async inviteSubjects(user: PrincipalDoc): Promise<string[]> {
    const digest = this.emailDigest(user);
    const ids = new Set(await this.inviteIds({ acceptedUserId: user.id }));
    if (digest) for (const id of await this.inviteIds({ emailDigest: digest })) ids.add(id);
    return [...ids].sort().map(inviteSubject);
  }

  /**
   * Carries out the erasure of each user: mail addressed to them first (found by the keyed
   * digest of its recipients, so it needs no readable email), then their invites' keys, their
   * own key last, so that a key still there means the erasure is not complete.
   */
  async carryOut(users: PrincipalDoc[]): Promise<ErasureReach> {
    const reach: ErasureReach = { keys: 0, mailFiles: 0, completed: new Set() };
    const byDigest = new Map<string, string>();
    for (const user of users) {
      const digest = this.emailDigest(user);
      if (digest) byDigest.set(digest, user.id);
    }
    if (byDigest.size > 0 && this.mail.forget) {
      reach.mailFiles = await this.mail.forget((address) => {
        const userId = byDigest.get(this.personal.lookupDigest('email', address));
        if (userId) reach.completed.add(userId);
        return userId !== undefined;
      });
    }
    for (const user of users) {
      const subjects = [...(await this.inviteSubjects(user)), userSubject(user.id)];
      for (const subject of subjects) {
        if (!(await this.personal.erase(subject))) continue;
        reach.keys += 1;
        reach.completed.add(user.id);
      }
    }
    return reach;
  }

  /** The keyed digest their email is found by; computed for a sign-up that kept it in clear. */
  private emailDigest(user: PrincipalDoc): string | null {
    if (user.emailDigest) return user.emailDigest;
    return typeof user.email === 'string' && user.email !== ''
      ? this.personal.lookupDigest('email', user.email.trim().toLowerCase())
      : null;
  }

  private async inviteIds(filter: Filter): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.reads
        .collection<InviteDoc>('invites')
        .find(filter, { limit: 500, cursor });
      ids.push(...page.items.map((d) => d.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return ids;
  }
}
