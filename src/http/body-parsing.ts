import express, { type NextFunction, type Request, type Response } from 'express';
import { requestIdOf } from './request-id.js';
import { sendError } from './error-response.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** JSON bodies up to 1 MiB; only objects and arrays at the top level. */
export const jsonBodyParser = express.json({
  limit: BODY_LIMIT_BYTES,
  strict: true,
  type: ['application/json', 'application/*+json'],
});

/** Parser failures (malformed JSON, too large) answer in the documented error shape. */
export function bodyErrorHandler(
  error: unknown,
  req: Request,
  res: Response,
  next: NextFunction,
): void {
  if (res.headersSent) {
    next(error);
    return;
  }
  sendError(res, error, requestIdOf(req));
}
