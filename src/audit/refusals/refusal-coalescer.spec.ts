import { describe, expect, it } from '@jest/globals';
import { RefusalCoalescer, type Refusal, type RefusalRecord } from './refusal-coalescer.js';

const refusal = (over: Partial<Refusal> = {}): Refusal => ({
  target: { surface: 'procedure', name: 'createAgent', lane: 'command' },
  caller: { principalId: null, kind: 'anonymous', role: null, authMethod: 'none', tokenId: null },
  clientAddress: '203.0.113.7',
  code: 'AUTH_REQUIRED',
  inputFields: [],
  requestId: 'r',
  ...over,
});
const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 0, 0, s));
const limits = { windowMs: 60_000, keysPerClient: 3, maxWindows: 100 };

describe('refusal coalescer', () => {
  it('given a window, writes the first refusal and counts identical repeats into one record', () => {
    const c = new RefusalCoalescer(limits);
    const closed: RefusalRecord[] = [];
    expect(c.admit(refusal(), t(0), closed)).toMatchObject({ count: 1, coalesced: false });
    for (let i = 1; i <= 999; i++) expect(c.admit(refusal(), t(i % 59), closed)).toBeNull();
    expect(c.closeDue(t(59))).toEqual([]);
    const [summary] = c.closeDue(t(60));
    expect(summary).toMatchObject({ count: 999, coalesced: true });
  });

  it('given another client or another code, opens a window of its own', () => {
    const c = new RefusalCoalescer(limits);
    expect(c.admit(refusal(), t(0), [])).not.toBeNull();
    expect(c.admit(refusal({ clientAddress: '198.51.100.1' }), t(1), [])).not.toBeNull();
    expect(c.admit(refusal({ code: 'TOKEN_INVALID' }), t(2), [])).not.toBeNull();
  });

  it('given a client past its cap of kinds, folds the rest into one overflow kind', () => {
    const c = new RefusalCoalescer(limits);
    const written = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) =>
      c.admit(refusal({ target: { surface: 'procedure', name, lane: 'command' } }), t(0), []),
    );
    expect(written.filter(Boolean).map((r) => r!.refusal.target.name)).toEqual([
      'a',
      'b',
      'c',
      '*',
    ]);
    expect(c.closeDue(t(0), true).map((r) => [r.refusal.target.name, r.count])).toEqual([['*', 2]]);
  });

  it('when a window has run out, the next refusal closes it and opens a new one', () => {
    const c = new RefusalCoalescer(limits);
    c.admit(refusal(), t(0), []);
    c.admit(refusal(), t(10), []);
    const closed: RefusalRecord[] = [];
    expect(c.admit(refusal(), t(70), closed)).toMatchObject({ count: 1, coalesced: false });
    expect(closed).toMatchObject([{ count: 1, coalesced: true }]);
  });

  it('never keeps more than maxWindows open', () => {
    const c = new RefusalCoalescer({ ...limits, maxWindows: 10 });
    for (let i = 0; i < 50; i++) c.admit(refusal({ clientAddress: `10.0.0.${i}` }), t(0), []);
    expect(c.openWindows).toBe(10);
  });
});

describe('refusal coalescer, when a first record could not be written', () => {
  it('forgets the window so that the next identical refusal is written again', () => {
    const c = new RefusalCoalescer(limits);
    const first = c.admit(refusal(), t(0), [])!;
    c.forget(first.refusal);
    expect(c.admit(refusal(), t(1), [])).toMatchObject({ count: 1, coalesced: false });
    expect(c.openWindows).toBe(1);
  });
});
