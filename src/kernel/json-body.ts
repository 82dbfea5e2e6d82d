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

/**
 * For a request whose body matters less than where it came from (logout): it must declare JSON
 * even when empty, which a cross-site form or a simple `fetch` cannot do without a preflight.
 */
export function requireJsonContentType(req: Request): void {
  const type = (req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw badRequest('Send this request with Content-Type: application/json', [
      { path: 'Content-Type', message: 'must be application/json' },
    ]);
  }
}
