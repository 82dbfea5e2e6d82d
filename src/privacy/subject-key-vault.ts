import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { VersionWatch } from '../common/version-watch.js';
import type { SecretBox } from '../secrets/secret-box.js';

/**
 * Per-subject data keys, kept outside the event store (`subject-keys.db`) so that deleting one
 * makes that subject's sealed values unreadable while the events themselves never change.
 * Keys are stored sealed with the service secret key: this file alone reveals nothing.
 */
export class SubjectKeyVault {
  private readonly db: Database.Database;
  /** Keys as last read; dropped whenever another connection (another replica) commits. */
  private readonly cache = new Map<string, Buffer | null>();
  private readonly otherCommits: VersionWatch;

  constructor(
    dataDir: string,
    private readonly box: SecretBox,
  ) {
    this.db = new Database(join(dataDir, 'subject-keys.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS subject_keys (
      subject TEXT PRIMARY KEY,
      sealed_key TEXT,
      created_at TEXT NOT NULL,
      erased_at TEXT
    )`);
    const dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
    this.otherCommits = new VersionWatch(() => dataVersion.get() ?? null);
  }

  /** The subject's key, created on first use; null once erased (erasure is final). */
  keyFor(subject: string): Buffer | null {
    const known = this.lookup(subject);
    if (known !== undefined) return known;
    const key = randomBytes(32);
    this.db
      .prepare(
        'INSERT OR IGNORE INTO subject_keys (subject, sealed_key, created_at) VALUES (?, ?, ?)',
      )
      .run(subject, this.box.seal(key.toString('base64')), new Date().toISOString());
    this.cache.delete(subject);
    return this.lookup(subject) ?? null;
  }

  /** The subject's key if it exists and was not erased; never creates one. */
  existingKey(subject: string): Buffer | null {
    return this.lookup(subject) ?? null;
  }

  /** Deletes the key for good. Returns false when there was none to erase. */
  erase(subject: string, at: Date): boolean {
    const result = this.db
      .prepare(
        `INSERT INTO subject_keys (subject, sealed_key, created_at, erased_at) VALUES (?, NULL, ?, ?)
         ON CONFLICT(subject) DO UPDATE SET sealed_key = NULL, erased_at = excluded.erased_at
         WHERE subject_keys.erased_at IS NULL`,
      )
      .run(subject, at.toISOString(), at.toISOString());
    this.cache.set(subject, null);
    // Overwrite the freed pages too, so the key is not recoverable from the file.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    return result.changes > 0;
  }

  /** Subjects starting with `prefix` whose keys still exist. */
  liveSubjects(prefix: string): string[] {
    const rows = this.db
      .prepare(
        'SELECT subject FROM subject_keys WHERE erased_at IS NULL AND substr(subject, 1, length(?)) = ?',
      )
      .all(prefix, prefix) as { subject: string }[];
    return rows.map((r) => r.subject);
  }

  isErased(subject: string): boolean {
    const row = this.db
      .prepare('SELECT erased_at FROM subject_keys WHERE subject = ?')
      .get(subject) as { erased_at: string | null } | undefined;
    return !!row?.erased_at;
  }

  close(): void {
    this.db.close();
  }

  /**
   * Drops the keys it keeps when another connection (a replica sharing the data directory) has
   * committed since they were read, which may have erased one; true when it did. Looked at
   * once per turn of the event loop (see VersionWatch).
   */
  refresh(): boolean {
    if (!this.otherCommits.moved()) return false;
    this.cache.clear();
    return true;
  }

  private lookup(subject: string): Buffer | null | undefined {
    this.refresh();
    if (this.cache.has(subject)) return this.cache.get(subject);
    const row = this.db
      .prepare('SELECT sealed_key FROM subject_keys WHERE subject = ?')
      .get(subject) as { sealed_key: string | null } | undefined;
    if (!row) return undefined;
    const key = row.sealed_key ? Buffer.from(this.box.open(row.sealed_key), 'base64') : null;
    this.cache.set(subject, key);
    return key;
  }
}
