import { randomBytes } from 'node:crypto';
import { OncePerTurn } from '../common/once-per-turn.js';
import type { ChangeMark, CollectionSpec, Doc, ReadStore } from '../readstore/read-store.port.js';
import type { SecretBox } from '../secrets/secret-box.js';

/** One subject's key, sealed with the service secret key; null once erased. */
export interface SubjectKeyDoc extends Doc {
  sealedKey: string | null;
  createdAt: string;
  erasedAt: string | null;
}

/** How many erasures the store has seen: what tells a process its kept keys may be stale. */
export interface ErasureCountDoc extends Doc {
  count: number;
}

export const SUBJECT_KEYS: CollectionSpec = { name: 'subject_keys' };
export const SUBJECT_KEY_ERASURES: CollectionSpec = { name: 'subject_key_erasures' };
const ERASURE_COUNT_ID = 'count';
const UNCHANGED = Promise.resolve(false);

/**
 * Per-subject data keys, kept in the primary store apart from the events, so that deleting one
 * makes that subject's sealed values unreadable while the events themselves never change. Keys
 * are stored sealed with the service secret key: the store alone reveals nothing. Every process
 * sharing the primary store (replicas on one host or many) uses the same keys.
 */
export class SubjectKeyVault {
  /** Keys as last read; dropped whenever the erasure count moves (another process erased). */
  private readonly cache = new Map<string, Buffer | null>();
  private erasuresSeen: number | null = null;
  /** The look at the erasure count, shared by every caller of a turn. */
  private readonly looking = new OncePerTurn(() => this.readErasures());
  /** The store's change mark when the count was last read, if the store gives one at once. */
  private markSeen: ChangeMark | null = null;

  private constructor(
    private readonly store: ReadStore,
    private readonly box: SecretBox,
  ) {}

  static async open(store: ReadStore, box: SecretBox): Promise<SubjectKeyVault> {
    await store.ensureCollection(SUBJECT_KEYS);
    await store.ensureCollection(SUBJECT_KEY_ERASURES);
    const vault = new SubjectKeyVault(store, box);
    await vault.refresh();
    return vault;
  }

  /** The subject's key, created on first use; null once erased (erasure is final). */
  async keyFor(subject: string): Promise<Buffer | null> {
    const known = await this.lookup(subject);
    if (known !== undefined) return known;
    const sealedKey = this.box.seal(randomBytes(32).toString('base64'));
    await this.store.transaction(async (session) => {
      const keys = session.collection<SubjectKeyDoc>(SUBJECT_KEYS.name);
      // Another process may have made it meanwhile: the first key made is the key.
      if (await keys.get(subject)) return;
      await keys.put({
        id: subject,
        sealedKey,
        createdAt: new Date().toISOString(),
        erasedAt: null,
      });
    });
    return (await this.lookup(subject)) ?? null;
  }

  /** The subject's key if it exists and was not erased; never creates one. */
  async existingKey(subject: string): Promise<Buffer | null> {
    return (await this.lookup(subject)) ?? null;
  }

  /** Deletes the key for good. Returns false when there was none to erase. */
  async erase(subject: string, at: Date): Promise<boolean> {
    const erased = await this.store.transaction(async (session) => {
      const keys = session.collection<SubjectKeyDoc>(SUBJECT_KEYS.name);
      const doc = await keys.get(subject);
      if (doc?.erasedAt) return false;
      const when = at.toISOString();
      await keys.put({
        id: subject,
        sealedKey: null,
        createdAt: doc?.createdAt ?? when,
        erasedAt: when,
      });
      const counts = session.collection<ErasureCountDoc>(SUBJECT_KEY_ERASURES.name);
      const count = (await counts.get(ERASURE_COUNT_ID))?.count ?? 0;
      await counts.put({ id: ERASURE_COUNT_ID, count: count + 1 });
      return true;
    });
    this.cache.set(subject, null);
    // The sealed key's old copy out of the store's files too, where the store can.
    if (erased) await this.store.forgetOverwritten?.(SUBJECT_KEYS.name);
    return erased;
  }

  /** Subjects starting with `prefix` whose keys still exist. */
  async liveSubjects(prefix: string): Promise<string[]> {
    const keys = this.store.collection<SubjectKeyDoc>(SUBJECT_KEYS.name);
    const subjects: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await keys.find(
        { erasedAt: null, id: { $gte: prefix, $lt: `${prefix}\uffff` } },
        { sort: { id: 1 }, limit: 1000, cursor },
      );
      subjects.push(...page.items.map((doc) => doc.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return subjects;
  }

  async isErased(subject: string): Promise<boolean> {
    const doc = await this.store.collection<SubjectKeyDoc>(SUBJECT_KEYS.name).get(subject);
    return !!doc?.erasedAt;
  }

  /**
   * Drops the keys it keeps when any process sharing the store has erased one since they were
   * read; true when it did. The erasure count is read at most once per turn of the event loop:
   * a request handled in the turn another process erases in reached this one before that
   * erasure could have been answered, so it is concurrent with it either way.
   */
  refresh(): Promise<boolean> {
    // Nothing committed to the store since the count was read (a mark known at once, SQLite's):
    // the count cannot have moved, and is not read again.
    const mark = this.store.changeMark?.() ?? null;
    if (mark !== null && mark === this.markSeen) return UNCHANGED;
    this.markSeen = mark;
    return this.looking.get();
  }

  private async readErasures(): Promise<boolean> {
    const counts = this.store.collection<ErasureCountDoc>(SUBJECT_KEY_ERASURES.name);
    const count = (await counts.get(ERASURE_COUNT_ID))?.count ?? 0;
    if (count === this.erasuresSeen) return false;
    this.erasuresSeen = count;
    this.cache.clear();
    return true;
  }

  private async lookup(subject: string): Promise<Buffer | null | undefined> {
    await this.refresh();
    if (this.cache.has(subject)) return this.cache.get(subject);
    const doc = await this.store.collection<SubjectKeyDoc>(SUBJECT_KEYS.name).get(subject);
    if (!doc) return undefined;
    const key = doc.sealedKey ? Buffer.from(this.box.open(doc.sealedKey), 'base64') : null;
    this.cache.set(subject, key);
    return key;
  }
}
