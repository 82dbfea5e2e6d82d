import express, { type NextFunction, type Request, type Response } from 'express';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { answerError } from './answer-error.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

declare module 'express-serve-static-core' {
  interface Request {
    /** The body's bytes as sent, kept only for inbound deploy hooks (their HMAC covers them). */
    rawBody?: Buffer;
  }
}

/** Inbound deploy hooks sign their body's exact bytes: those requests keep them. */
const HOOK_PATH = /^\/api\/v1\/hooks\/[^/]+\/?$/;

/** JSON bodies up to 1 MiB; only objects and arrays at the top level. */
export const jsonBodyParser = express.json({
  limit: BODY_LIMIT_BYTES,
  strict: true,
  type: ['application/json', 'application/*+json'],
  verify: (req, _res, buf) => {
    const request = req as express.Request;
    if (HOOK_PATH.test(request.path ?? '')) request.rawBody = buf;
  },
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
