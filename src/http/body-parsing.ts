import express, { type NextFunction, type Request, type Response } from 'express';
import type { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { assertWellFormedText } from '../kernel/well-formed-text.js';
import { answerError } from './answer-error.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

declare module 'express-serve-static-core' {
  interface Request {
    /** The body's bytes as sent, kept only for inbound hooks and pushes (their HMAC covers them). */
    rawBody?: Buffer;
  }
}

/**
 * The routes whose JSON bodies may be larger, and how large: a compose intake carries up to 16
 * files of 1 MiB each (checked per file after parsing), with room for JSON's escapes.
 */
export const LARGE_BODY_ROUTES: Readonly<Record<string, number>> = {
  'POST /api/v1/deploy/compose': 20 * 1024 * 1024,
};

/**
 * Deliveries from other systems are kept as bytes (their signature covers them) and read by
 * their handler, JSON or GitHub's form encoding (a hook made with GitHub's defaults sends that):
 * push deliveries from git providers (GitHub caps a delivery at 25 MB; a push names at most 20
 * commits, well within 5 MiB), and inbound deploy hooks, at their URL or their unsigned URL.
 */
export const GIT_PUSH_BODY_LIMIT_BYTES = 5 * 1024 * 1024;
const DELIVERY_TYPES = [
  'application/json',
  'application/*+json',
  'application/x-www-form-urlencoded',
];
const RAW_ROUTES: readonly { path: RegExp; parser: ReturnType<typeof express.raw> }[] = [
  {
    path: /^\/api\/v1\/git\/push\/[^/]+\/?$/,
    parser: express.raw({ limit: GIT_PUSH_BODY_LIMIT_BYTES, type: DELIVERY_TYPES }),
  },
  {
    path: /^\/api\/v1\/hooks\/[^/]+(?:\/[^/]+)?\/?$/,
    parser: express.raw({ limit: BODY_LIMIT_BYTES, type: DELIVERY_TYPES }),
  },
];

const JSON_TYPES = ['application/json', 'application/*+json'];
const jsonParser = (limit: number) => express.json({ limit, strict: true, type: JSON_TYPES });
const standardJson = jsonParser(BODY_LIMIT_BYTES);
const largeJson = new Map(
  Object.entries(LARGE_BODY_ROUTES).map(([route, limit]) => [route, jsonParser(limit)]),
);

/** Procedure inputs are checked as inputs (validateInput), so their issues name input fields. */
const PROCEDURE_PATH = /^\/trpc\//;

/**
 * JSON bodies up to 1 MiB (LARGE_BODY_ROUTES: their own limit); only objects and arrays, and
 * only well-formed Unicode text in them (a refusal names each field; see well-formed-text.ts).
 */
export function jsonBodyParser(req: Request, res: Response, next: NextFunction): void {
  const raw = RAW_ROUTES.find((r) => r.path.test(req.path));
  if (raw) {
    raw.parser(req, res, (error?: unknown) => {
      if (Buffer.isBuffer(req.body)) req.rawBody = req.body;
      req.body = {};
      next(error);
    });
    return;
  }
  const parser = largeJson.get(`${req.method} ${req.path}`) ?? standardJson;
  parser(req, res, (error?: unknown) => {
    if (error !== undefined || PROCEDURE_PATH.test(req.path)) {
      next(error);
      return;
    }
    try {
      assertWellFormedText(req.body);
    } catch (refusal) {
      next(refusal);
      return;
    }
    next();
  });
}

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
