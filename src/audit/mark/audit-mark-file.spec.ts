import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AuditSigningKey } from '../audit-signing-key.js';
import { AuditMarkFile } from './audit-mark-file.js';
import type { AuditMark } from './audit-mark.js';

const mark = (sequence: number): AuditMark => ({
  sequence,
  digest: String(sequence).padStart(64, '0'),
  toPosition: 10 * sequence - 1,
  position: 10 * sequence,
  signedAt: '2026-11-30T00:00:00.000Z',
});

describe('the mark file beside the signing key', () => {
  let dir: string;
  let file: AuditMarkFile;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-mark-file-'));
    file = AuditMarkFile.in(dir, AuditSigningKey.load(dir, undefined));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is absent at first, then holds what was written, signed, mode 0600, with no file left behind', () => {
    expect(file.read()).toEqual({ kind: 'none' });
    file.write(mark(2));
    expect(file.read()).toEqual({ kind: 'mark', mark: mark(2) });
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file.path, 'utf8'))).toHaveProperty('signature');
  });

  it('never goes down: a lower mark written later keeps the higher one', () => {
    file.write(mark(3));
    file.write(mark(2));
    expect(file.read()).toEqual({ kind: 'mark', mark: mark(3) });
  });

  it('refuses a mark edited by hand, or signed by another key', () => {
    file.write(mark(3));
    const edited = { ...JSON.parse(readFileSync(file.path, 'utf8')), sequence: 1 };
    writeFileSync(file.path, JSON.stringify(edited));
    expect(file.read()).toMatchObject({ kind: 'invalid', reason: /not signed by the audit key/ });
    // Nor is it written over: what to do with it is an operator's call.
    file.write(mark(4));
    expect(file.read()).toMatchObject({ kind: 'invalid' });
    const other = AuditMarkFile.in(
      dir,
      AuditSigningKey.load(mkdtempSync(join(dir, 'k-')), undefined),
    );
    rmSync(file.path);
    other.write(mark(5));
    expect(file.read()).toMatchObject({ kind: 'invalid' });
    writeFileSync(file.path, 'not json');
    expect(file.read()).toMatchObject({ kind: 'invalid', reason: /not JSON/ });
  });
});
