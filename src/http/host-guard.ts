import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import type { AppError } from '../common/app-error.js';
import type { AllowedHosts, Arrival } from './allowed-hosts.js';
import { answerError } from './answer-error.js';

/** Why a request is refused by the names this server answers to, or null to let it through. */
export type HostRefusal = (
  req: Request,
  allowed: AllowedHosts,
  arrivalOf: (req: Request) => Arrival,
) => AppError | null;

/**
 * A middleware (hostCheck, crossSiteGuard) that judges each request against this server's names
 * (AllowedHosts) and where it arrived: one that `refusalOf` refuses is marked (see
 * unrouted-target) and answered with the refusal, which goes on the audit trail; any other goes on.
 */
export function hostGuard(refusalOf: HostRefusal) {
  return (
      allowed: AllowedHosts,
      arrivalOf: (req: Request) => Arrival,
      recorder: RefusalRecorder | null,
      markTarget: (req: Request) => void = () => undefined,
    ): RequestHandler =>
    (req: Request, res: Response, next: NextFunction): void => {
      const refusal = refusalOf(req, allowed, arrivalOf);
      if (refusal === null) {
        next();
        return;
      }
      markTarget(req);
      void answerError(recorder, req, res, refusal);
    };
}
