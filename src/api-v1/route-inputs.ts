import type { Request } from 'express';
import { IsUUID, Matches } from 'class-validator';
import { badRequest } from '../common/app-error.js';
import { UPLOAD_ID } from '../deployments/uploads/uploads.js';

/** `{id}` of a server. */
export class ServerIdParams {
  @IsUUID()
  id!: string;
}

/** `{id}` of an upload: `upl_` and 22 base64url characters, nothing else. */
export class UploadIdParams {
  @Matches(UPLOAD_ID, { message: 'id is upl_ and 22 base64url characters' })
  id!: string;
}

/**
 * The declared length of a streamed body: a non-negative integer, or null when the body is
 * chunked. Anything else is refused (a body whose length cannot be trusted is not read).
 */
export function declaredLength(req: Request): number | null {
  const raw = req.header('content-length');
  if (raw === undefined) return null;
  if (!/^\d{1,16}$/.test(raw))
    throw badRequest('Content-Length is malformed', [
      { path: 'Content-Length', message: 'malformed' },
    ]);
  return Number(raw);
}

/** Refuses a streamed body of another type than `types` (before a byte of it is read). */
export function requireContentType(req: Request, types: readonly string[]): void {
  const type = (req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!types.includes(type))
    throw badRequest(`Content-Type must be one of ${types.join(', ')}`, [
      { path: 'Content-Type', message: type ? `${type.slice(0, 100)} is not accepted` : 'missing' },
    ]);
}

/**
 * After a refused streamed body: the rest of it is read and dropped, so the client gets its
 * answer (the HTTP request timeout bounds how long that may take).
 */
export function drain(req: Request): void {
  req.unpipe();
  req.resume();
}
