import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { AppError } from '../common/app-error.js';
import { requestIdOf } from '../http/request-id.js';
import { sendError } from '../http/error-response.js';

/** Hashed file names change with their content: a browser may keep them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, the icon) is checked with the server on every use. */
export const REVALIDATE = 'no-cache';

/** Paths whose answers are the API's own, JSON errors included, whatever the Accept header. */
const API_PATH = /^\/(trpc|api)(\/|$)/;
/** Vite writes every hashed file here; an unknown one is a 404, never the app. */
const ASSET_PATH = /^\/assets\//;

/** `dist/web` under the package root, where `npm run build:web` writes the bundle. */
export function defaultBundleDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'dist', 'web');
}

/**
 * The dashboard: the built files as they are, and `index.html` for any other page a browser
 * asks for (a GET or HEAD accepting `text/html` outside `/trpc`, `/api` and `/assets`), so a deep
 * link or a reload lands in the app, which routes it. Other requests fall through to the API
 * and its JSON answers, 404s included. The security headers (CSP without inline script, no
 * framing, no referrer, nosniff) are set for every answer before this runs.
 */
export function dashboard(bundleDir: string = defaultBundleDir()): RequestHandler[] {
  const root = resolve(bundleDir);
  const index = join(root, 'index.html');
  // The build wrote `.br` and `.gz` beside each text file: the best one the browser accepts is
  // sent (Vary: Accept-Encoding), with the original's type and caching.
  const files = expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      cacheControl: false,
      setHeaders: (res, path) => {
        const hashed = path.startsWith(join(root, 'assets') + '/');
        res.setHeader('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
      },
    },
  });
  const staticFiles: RequestHandler = (req, res, next) => {
    if (API_PATH.test(req.path)) next();
    else void files(req, res, next);
  };
  const historyFallback = (req: Request, res: Response, next: NextFunction): void => {
    if (!wantsPage(req)) {
      next();
      return;
    }
    if (!existsSync(index)) {
      const missing = new AppError(
        'SERVICE_UNAVAILABLE',
        'The dashboard is not built: run `npm run build:web` (or `npm start`, which builds it)',
      );
      sendError(res, missing, requestIdOf(req));
      return;
    }
    res.sendFile(index, { cacheControl: false, headers: { 'Cache-Control': REVALIDATE } }, (e) => {
      if (e && !res.headersSent) next(e);
    });
  };
  return [staticFiles, historyFallback];
}

function wantsPage(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (API_PATH.test(req.path) || ASSET_PATH.test(req.path)) return false;
  return (req.header('accept') ?? '').includes('text/html');
}
