import express, { type NextFunction, type Request, type Response } from 'express';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { answerError } from './answer-error.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** JSON bodies up to 1 MiB; only objects and arrays at the top level. */
export const jsonBodyParser = express.json({
  limit: BODY_LIMIT_BYTES,
  strict: true,
  type: ['application/json', 'application/*+json'],
});

/**
 * Parser failures (malformed JSON, too large) answer in the documented error shape. They happen
 * before routing, so `markTarget` names what the request was aimed at, for the audit trail.
 */
export function bodyErrorHandler(
  recorder: RefusalRecorder | null,
  markTarget: (req: Request) => void = () => undefined,
) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(error);
      return;
    }
    markTarget(req);
    void answerError(recorder, req, res, error);
  };
}
