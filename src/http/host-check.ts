import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { AppError } from '../common/app-error.js';
import type { AllowedHosts, Arrival } from './allowed-hosts.js';
import { answerError } from './answer-error.js';

/**
 * Refuses, before any route (dashboard, /trpc, /api, /mcp) runs, a request whose Host is not
 * one of this server's names (see AllowedHosts): against DNS rebinding, where a page on an
 * attacker's name that resolves here would be same-origin with us and could, say, create the
 * first owner. 403 like the cross-site refusal (a policy refusal, not a retryable
 * misdirection); the message names the setting an operator would change.
 */
export function hostCheck(
  allowed: AllowedHosts,
  arrivalOf: (req: Request) => Arrival,
  recorder: RefusalRecorder | null,
  markTarget: (req: Request) => void = () => undefined,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (allowed.allowsHost(req.header('host'), arrivalOf(req))) {
      next();
      return;
    }
    markTarget(req);
    const refusal = new AppError(
      'FORBIDDEN',
      'This server does not answer to the host this request was sent to; if it is one of its names, add its URL to SLIPWAY_PUBLIC_URL',
      { reason: 'HOST_NOT_ALLOWED' },
    );
    void answerError(recorder, req, res, refusal);
  };
}
