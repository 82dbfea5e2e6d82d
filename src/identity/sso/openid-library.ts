import type * as OpenIdClient from 'openid-client';

export type OpenId = typeof OpenIdClient;

let loading: Promise<OpenId> | null = null;

/**
 * openid-client (with jose and oauth4webapi), loaded at the first sign-in through a provider:
 * a team that does not use single sign-on never holds it in memory (about 9 MB of RSS).
 */
export function openId(): Promise<OpenId> {
  loading ??= import('openid-client');
  return loading;
}
