import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { AppError } from '../common/app-error.js';
import type { AppConfig } from '../config/app-config.js';
import { anonymousContext, type RequestContext } from '../kernel/request-context.js';
import type { AccessService, AccessTarget } from './access.service.js';
import type { AuthenticatedIdentity, HeldCredential } from './authenticated-identity.js';
import { CredentialWatch } from './credential-watch.js';

const CHECK_MS = 1000;
const TARGET: AccessTarget = { name: 'stream', roles: ['viewer'], scopes: ['logs:read'] };

const tokenCtx = (tokenId: string): RequestContext => ({
  ...anonymousContext('r', 'c', null),
  authMethod: 'token',
  tokenId,
});

/** An AccessService whose verification answers what `verdict` says for each credential. */
function accessWith(verdict: (held: HeldCredential) => Promise<void>) {
  const reverified: HeldCredential[] = [];
  const access = {
    reverify: async (held: HeldCredential) => {
      reverified.push(held);
      await verdict(held);
      return {} as AuthenticatedIdentity;
    },
    admit: async () => [],
  } as unknown as AccessService;
  const config = { streams: { credentialCheckMs: CHECK_MS } } as AppConfig;
  return { watch: new CredentialWatch(access, config), reverified };
}

describe('CredentialWatch', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('aborts with the reason once the credential is refused', async () => {
    let revoked = false;
    const { watch } = accessWith(async () => {
      if (revoked) throw new AppError('TOKEN_REVOKED', 'The token was revoked');
    });
    const lease = watch.watch(tokenCtx('t1'), [TARGET]);
    await jest.advanceTimersByTimeAsync(CHECK_MS * 3);
    expect([lease.signal.aborted, lease.ended]).toEqual([false, null]);
    revoked = true;
    await jest.advanceTimersByTimeAsync(CHECK_MS);
    expect(lease.ended).toEqual({ reason: 'credential revoked', code: 'TOKEN_REVOKED' });
    expect(lease.signal.reason).toEqual(lease.ended);
    expect(watch.size()).toBe(0);
  });

  it('verifies a credential once per pass, however many responses hold it', async () => {
    const { watch, reverified } = accessWith(async () => undefined);
    watch.watch(tokenCtx('t1'), [TARGET]);
    watch.watch(tokenCtx('t1'), [TARGET]);
    watch.watch(tokenCtx('t2'), [TARGET]);
    await jest.advanceTimersByTimeAsync(CHECK_MS);
    expect(reverified).toEqual([
      { method: 'token', tokenId: 't1' },
      { method: 'token', tokenId: 't2' },
    ]);
  });

  it('ends only after three passes in a row that could not check (fail closed)', async () => {
    let failing = true;
    const { watch } = accessWith(async () => {
      if (failing) throw new Error('read store unavailable');
    });
    const lease = watch.watch(tokenCtx('t1'), [TARGET]);
    await jest.advanceTimersByTimeAsync(CHECK_MS * 2);
    failing = false;
    await jest.advanceTimersByTimeAsync(CHECK_MS);
    failing = true;
    await jest.advanceTimersByTimeAsync(CHECK_MS * 2);
    expect(lease.ended).toBeNull();
    await jest.advanceTimersByTimeAsync(CHECK_MS);
    expect(lease.ended).toEqual({
      reason: 'credential could not be checked',
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('lets go when stopped or when the response ends, leaving the signal as it is', async () => {
    const { watch, reverified } = accessWith(async () => undefined);
    const stopped = watch.watch(tokenCtx('t1'), [TARGET]);
    const response = new AbortController();
    const ended = watch.watch(tokenCtx('t2'), [TARGET], response.signal);
    stopped.stop();
    response.abort();
    expect(watch.size()).toBe(0);
    await jest.advanceTimersByTimeAsync(CHECK_MS * 2);
    expect(reverified).toEqual([]);
    expect([stopped.signal.aborted, ended.signal.aborted]).toEqual([false, false]);
  });

  it('ends at once a context that holds no credential', () => {
    const { watch } = accessWith(async () => undefined);
    const lease = watch.watch(anonymousContext('r', 'c', null), [TARGET]);
    expect(lease.ended).toEqual({ reason: 'no credential', code: 'AUTH_REQUIRED' });
    expect(watch.size()).toBe(0);
  });
});
