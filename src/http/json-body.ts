import type { Request } from 'express';
import { badRequest } from '../common/app-error.js';

/** The parsed JSON body of a REST call; a body of another content type is refused. */
export function jsonBody(req: Request): unknown {
  const length = Number(req.header('content-length') ?? 0);
  const hasBody = length > 0 || req.header('transfer-encoding') !== undefined;
  if (hasBody && !req.is(['application/json', 'application/*+json'])) {
    throw badRequest('The body must be JSON with Content-Type: application/json');
  }
  return req.body as unknown;
}
