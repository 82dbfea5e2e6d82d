import { describe, expect, it } from '@jest/globals';
import { StreamLocks } from './stream-locks.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('stream locks', () => {
  it('runs work on one stream one at a time, in arrival order, and other streams alongside', async () => {
    const locks = new StreamLocks();
    const log: string[] = [];
    const work = (name: string) => async () => {
      log.push(`${name} in`);
      await tick();
      log.push(`${name} out`);
    };
    await Promise.all([
      locks.exclusive('a', work('a1')),
      locks.exclusive('a', work('a2')),
      locks.exclusive('b', work('b1')),
    ]);
    expect(log.indexOf('a2 in')).toBeGreaterThan(log.indexOf('a1 out'));
    expect(log.indexOf('b1 in')).toBeLessThan(log.indexOf('a1 out'));
  });

  it('lets the next holder in at an early release, and after a failure', async () => {
    const locks = new StreamLocks();
    const log: string[] = [];
    const first = locks.exclusive('a', async (release) => {
      release();
      await tick();
      await tick();
      log.push('first done');
    });
    const second = locks.exclusive('a', async () => {
      log.push('second in');
    });
    await Promise.all([first, second]);
    expect(log).toEqual(['second in', 'first done']);
    await expect(
      locks.exclusive('a', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await locks.exclusive('a', async () => 'after')).toBe('after');
  });
});
