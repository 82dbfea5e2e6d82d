import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { AppError } from '../common/app-error.js';
import { answerError } from './answer-error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A browser sends the session cookie along with requests that another site makes it send; the
 * JSON content type alone is no barrier. So a state-changing request that is not
 * bearer-authenticated (it may carry the cookie) is refused when the browser says it comes
 * from another origin: an `Origin` other than ours, or `Sec-Fetch-Site` `cross-site` or
 * `same-site`. Requests with neither header (the CLI, scripts) pass, as do bearer requests,
 * which a browser never adds on its own.
 */
export function crossSiteGuard(
  publicUrl: string,
  recorder: RefusalRecorder | null,
  markTarget: (req: Request) => void = () => undefined,
): RequestHandler {
  const publicOrigin = new URL(publicUrl).origin;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(req.method) || req.header('authorization') !== undefined) {
      next();
      return;
    }
    if (!comesFromAnotherSite(req, publicOrigin)) {
      next();
      return;
    }
    markTarget(req);
    const refusal = new AppError('FORBIDDEN', 'Cross-site requests may not change state', {
      reason: 'CROSS_SITE',
    });
    void answerError(recorder, req, res, refusal);
  };
}

function comesFromAnotherSite(req: Request, publicOrigin: string): boolean {
  const fetchSite = req.header('sec-fetch-site');
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  const origin = req.header('origin');
  if (origin === undefined) return false;
  // Our origin is the public URL's, or the one the request itself was addressed to.
  const addressed = `${req.protocol}://${req.header('host') ?? ''}`;
  return origin !== publicOrigin && origin.toLowerCase() !== addressed.toLowerCase();
}
