import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { verifySignature, type AuditSigningKey } from '../audit-signing-key.js';
import { markDigest, pick, type AuditMark } from './audit-mark.js';

export const AUDIT_MARK_FILE_NAME = 'audit-mark.json';

export type MarkRead =
  { kind: 'none' } | { kind: 'mark'; mark: AuditMark } | { kind: 'invalid'; reason: string };

/** Where verification finds the mark: the file, or what a process knows beyond it. */
export interface MarkReader {
  read(): MarkRead;
}

const HEX64 = /^[0-9a-f]{64}$/;
const count = (v: unknown, min: number) => Number.isSafeInteger(v) && (v as number) >= min;

/**
 * `audit-mark.json` in the data directory, beside `audit-signing.key` (where that key lives when
 * it is a file; with `SLIPWAY_AUDIT_SIGNING_KEY`, still the data directory: the app host's disk,
 * out of reach of whoever administers the event store). Signed with the audit key, so a mark
 * edited by hand is refused rather than believed.
 */
export class AuditMarkFile implements MarkReader {
  constructor(
    readonly path: string,
    private readonly key: AuditSigningKey,
  ) {}

  static in(dataDir: string, key: AuditSigningKey): AuditMarkFile {
    return new AuditMarkFile(join(dataDir, AUDIT_MARK_FILE_NAME), key);
  }

  read(): MarkRead {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'none' };
      return { kind: 'invalid', reason: `${this.path} cannot be read (${code})` };
    }
    let value: Partial<AuditMark & { signature: string }>;
    try {
      value = JSON.parse(text) as typeof value;
    } catch {
      return { kind: 'invalid', reason: `${this.path} is not JSON` };
    }
    const wellFormed =
      count(value.sequence, 1) &&
      typeof value.digest === 'string' &&
      HEX64.test(value.digest) &&
      count(value.toPosition, 0) &&
      count(value.position, 1) &&
      typeof value.signedAt === 'string' &&
      typeof value.signature === 'string';
    if (!wellFormed) return { kind: 'invalid', reason: `${this.path} is not an audit mark` };
    const mark = pick(value as AuditMark);
    if (!verifySignature(this.key.publicKeyPem, markDigest(mark), value.signature!)) {
      return { kind: 'invalid', reason: `${this.path} is not signed by the audit key` };
    }
    return { kind: 'mark', mark };
  }

  /**
   * Replaces the file at once (a temporary file, synced, renamed over it), mode 0600. A higher
   * mark another process wrote is kept (a lower one here would only weaken it), and so is a
   * file that is not a valid mark: that is for an operator to look at.
   */
  write(mark: AuditMark): void {
    const current = this.read();
    if (current.kind === 'invalid') return;
    if (current.kind === 'mark' && current.mark.sequence >= mark.sequence) return;
    const body = { ...pick(mark), signature: this.key.sign(markDigest(mark)) };
    const dir = dirname(this.path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      const fd = openSync(temp, 'wx', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(body, null, 2)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    // The rename itself survives a power cut only once the directory is synced.
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  }
}
