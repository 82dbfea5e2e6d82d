import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Gives every request an id (echoed as X-Request-Id) and a correlation id. A caller's own
 * well-formed X-Correlation-Id is kept so that its logs and our events line up.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  req.requestId = randomUUID();
  const incoming = req.header('x-correlation-id');
  req.correlationId = incoming && SAFE_ID.test(incoming) ? incoming : req.requestId;
  res.setHeader('X-Request-Id', req.requestId);
  next();
}

export function requestIdOf(req: Request): string {
  return req.requestId ?? 'unknown';
}
