import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { navigate } from 'wouter/use-browser-location';
import { ApiError, needsLogin, needsMfa } from './api/errors';
import { loginPathFor } from './auth/return-to';

export const MFA_PAGE = '/account/mfa';

/**
 * Every failed call passes here. Without a valid session (a 401: no cookie, expired, ended) the
 * browser goes to `/login?returnTo=<this page>` (spec 5.1), unless it is on an auth page already; what it had read is forgotten when
 * the next session starts (the login page clears the cache). When the team policy wants a
 * second factor the session lacks (MFA_REQUIRED), it goes to the enrolment page.
 */
function onApiError(error: unknown): void {
  const here = window.location;
  if (needsLogin(error)) {
    const login = loginPathFor(here);
    if (login) navigate(login, { replace: true });
  } else if (needsMfa(error) && here.pathname !== MFA_PAGE) {
    const back = `${here.pathname}${here.search}`;
    navigate(`${MFA_PAGE}?returnTo=${encodeURIComponent(back)}`, { replace: true });
  }
}

/** Refusals (4xx) are answers, not hiccups: only network failures and 5xx are retried. */
function retry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 2;
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onApiError }),
  mutationCache: new MutationCache({ onError: onApiError }),
  defaultOptions: {
    queries: { retry, staleTime: 2_000 },
    mutations: { retry: false },
  },
});
