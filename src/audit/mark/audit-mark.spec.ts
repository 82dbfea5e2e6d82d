import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { checkpointDigest, type CheckpointFields } from '../../events/audit.events.js';
import { AuditSigningKey } from '../audit-signing-key.js';
import { GENESIS } from '../hash-chain.js';
import {
  judgeStore,
  markOf,
  missingCheckpoint,
  NOTHING_SEEN,
  parseKnownCheckpoint,
  refusalToSign,
  sight,
  type AuditMark,
  type PlacedCheckpoint,
} from './audit-mark.js';

const dir = mkdtempSync(join(tmpdir(), 'slipway-mark-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const key = AuditSigningKey.load(dir, undefined);
const pem = key.publicKeyPem;

/** A signed chain of checkpoints, checkpoint n at position 10·n, sealing up to 10·n - 1. */
function chain(count: number, sign = key): PlacedCheckpoint[] {
  const list: PlacedCheckpoint[] = [];
  for (let n = 1; n <= count; n++) {
    const fields: CheckpointFields = {
      sequence: n,
      toPosition: 10 * n - 1,
      chainHash: `${n}`.padStart(64, 'a'),
      previousCheckpointHash: list.length ? checkpointDigest(list[n - 2]) : GENESIS,
    };
    list.push({
      ...fields,
      signature: sign.sign(checkpointDigest(fields)),
      position: 10 * n,
      revision: BigInt(n - 1),
      recordedAt: `2026-11-0${n}T00:00:00.000Z`,
    });
  }
  return list;
}
const signed = chain(3);
const markAt = (n: number): AuditMark => markOf(signed[n - 1]);

describe('judging the event store against the mark', () => {
  it('Given no mark, When the store holds checkpoints, Then the newest is taken as it is', () => {
    expect(judgeStore(null, signed, pem)).toEqual({ ok: true, newest: signed[2] });
    expect(judgeStore(null, [], pem)).toEqual({ ok: true, newest: null });
  });

  it('Given a mark, When the store holds it and signed checkpoints after it, Then the newest stands', () => {
    expect(judgeStore(markAt(2), signed, pem)).toEqual({ ok: true, newest: signed[2] });
    expect(judgeStore(markAt(3), signed.slice(2), pem)).toEqual({ ok: true, newest: signed[2] });
  });

  it('Given a mark at checkpoint 3, When the store was cut back to checkpoint 1, Then it is truncated after checkpoint 1', () => {
    expect(judgeStore(markAt(3), signed.slice(0, 1), pem)).toEqual({
      ok: false,
      problem: 'truncated',
      firstBadPosition: 11,
      message:
        'the event store ends before checkpoint 3 signed at 2026-11-03T00:00:00.000Z (its last checkpoint is 1)',
    });
    expect(judgeStore(markAt(1), [], pem)).toMatchObject({
      problem: 'truncated',
      firstBadPosition: 1,
    });
  });

  it('Given a mark, When the store holds another checkpoint of that sequence (signed over a rewritten history), Then it diverged', () => {
    const rewritten = { ...signed[1], chainHash: 'f'.repeat(64) };
    const resigned = { ...rewritten, signature: key.sign(checkpointDigest(rewritten)) };
    expect(judgeStore(markAt(2), [signed[0], resigned], pem)).toMatchObject({
      ok: false,
      problem: 'diverged',
      firstBadPosition: 11,
    });
  });

  it('Given a mark, When a checkpoint after it does not link to it or is not signed by the key, Then it is refused', () => {
    const unlinked = { ...signed[2], previousCheckpointHash: GENESIS };
    expect(judgeStore(markAt(2), [signed[1], unlinked], pem)).toMatchObject({
      ok: false,
      problem: 'broken-checkpoint-link',
      firstBadPosition: 30,
    });
    const forger = AuditSigningKey.load(mkdtempSync(join(dir, 'other-')), undefined);
    const forged = { ...signed[2], signature: forger.sign(checkpointDigest(signed[2])) };
    expect(judgeStore(markAt(2), [signed[1], forged], pem)).toMatchObject({
      ok: false,
      problem: 'bad-signature',
      firstBadPosition: 30,
    });
  });
});

describe('the last guard before signing', () => {
  const next = (base: PlacedCheckpoint) => ({
    sequence: base.sequence + 1,
    previousCheckpointHash: checkpointDigest(base),
  });

  it('Given a mark, When the next checkpoint extends it or a later one, Then it is signed', () => {
    expect(refusalToSign(markAt(2), signed[1], next(signed[1]))).toBeNull();
    expect(refusalToSign(markAt(2), signed[2], next(signed[2]))).toBeNull();
    expect(refusalToSign(null, null, { sequence: 1, previousCheckpointHash: GENESIS })).toBeNull();
  });

  it('Given a mark at 2, When asked to sign a sequence at or below it, Then it refuses', () => {
    expect(refusalToSign(markAt(2), signed[0], next(signed[0]))).toMatch(
      /checkpoint 2 would not come after checkpoint 2 signed at/,
    );
    expect(
      refusalToSign(markAt(2), null, { sequence: 1, previousCheckpointHash: GENESIS }),
    ).toMatch(/would not come after/);
  });

  it('Given a mark, When the chain to extend holds another marked checkpoint or skips one, Then it refuses', () => {
    const other = { ...signed[1], chainHash: 'e'.repeat(64) };
    expect(refusalToSign(markAt(2), other, next(other))).toMatch(/another checkpoint 2/);
    expect(
      refusalToSign(markAt(2), signed[2], { sequence: 5, previousCheckpointHash: GENESIS }),
    ).toMatch(/would not follow checkpoint 3/);
  });
});

describe('a checkpoint kept outside Slipway (--expect)', () => {
  const known = { sequence: 2, digest: checkpointDigest(signed[1]) };
  const walk = (list: PlacedCheckpoint[]) =>
    list.reduce((s, c) => sight(known, s, { ...c, digest: checkpointDigest(c) }), NOTHING_SEEN);

  it('When the trail holds it, Then nothing is missing', () => {
    expect(missingCheckpoint(known, walk(signed), 'the export', 'expected')).toBeNull();
  });

  it('When the trail ends before it, Then it is truncated after the last checkpoint', () => {
    expect(missingCheckpoint(known, walk(signed.slice(0, 1)), 'the export', 'expected')).toEqual({
      problem: 'truncated',
      firstBadPosition: 11,
      message: 'the export ends before checkpoint 2 expected (its last checkpoint is 1)',
    });
  });

  it('When it starts after it, Then it is not covered', () => {
    expect(missingCheckpoint(known, walk(signed.slice(2)), 'the export', 'expected')).toMatchObject(
      { problem: 'not-covered' },
    );
  });

  it('parses only <sequence>:<digest>', () => {
    expect(parseKnownCheckpoint(`2:${known.digest}`)).toEqual(known);
    for (const bad of ['2', `0:${known.digest}`, `2:${known.digest.toUpperCase()}`, `2:abc`]) {
      expect(parseKnownCheckpoint(bad)).toBeNull();
    }
    expect(parseKnownCheckpoint(`${'9'.repeat(16)}:${known.digest}`)).toBeNull();
  });
});
