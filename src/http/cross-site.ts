import type { Request } from 'express';
import { AppError } from '../common/app-error.js';
import { hostGuard } from './host-guard.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A browser sends the session cookie along with requests that another site makes it send; the
 * JSON content type alone is no barrier. So a state-changing request that is not
 * bearer-authenticated (it may carry the cookie) is refused when the browser says it comes
 * from another origin: an `Origin` that is not one of our names (AllowedHosts: never the
 * request's own Host, which the page's author may have chosen), or `Sec-Fetch-Site`
 * `cross-site` or `same-site`. Requests with neither header (the CLI, scripts) pass, as do
 * bearer requests, which a browser never adds on its own.
 */
export const crossSiteGuard = hostGuard((req, allowed, arrivalOf) => {
  if (SAFE_METHODS.has(req.method) || req.header('authorization') !== undefined) return null;
  if (!comesFromAnotherSite(req, (origin) => allowed.allowsOrigin(origin, arrivalOf(req)))) {
    return null;
  }
  return new AppError('FORBIDDEN', 'Cross-site requests may not change state', {
    reason: 'CROSS_SITE',
  });
});

function comesFromAnotherSite(req: Request, isOurs: (origin: string) => boolean): boolean {
  const fetchSite = req.header('sec-fetch-site');
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  const origin = req.header('origin');
  return origin !== undefined && !isOurs(origin);
}
