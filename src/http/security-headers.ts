import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * Security headers on every answer, errors and 404s included (helmet). The CSP suits the
 * dashboard served from this same origin (`src/web/`): its own scripts, styles, fonts, images
 * (and `data:` images: the MFA QR code) and API calls only, no inline script, never framed.
 * HSTS only over https, where it means something: a plain-http deployment on loopback must not
 * pin browsers to an https port that does not exist.
 */
export function securityHeaders(publicUrl: string): RequestHandler {
  const httpsPublicUrl = publicUrl.startsWith('https://');
  const headers = headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'default-src': ["'self'"],
          'frame-ancestors': ["'none'"],
          // The dashboard's styles and fonts are its own files: no inline style, no other host.
          'style-src': ["'self'"],
          'font-src': ["'self'"],
          // Upgrading would break a dashboard reached over plain http (loopback, tests).
          'upgrade-insecure-requests': httpsPublicUrl ? [] : null,
        },
      },
      referrerPolicy: { policy: 'no-referrer' },
      xFrameOptions: { action: 'deny' },
      strictTransportSecurity: false,
    }),
  );
  const withHsts = [
    ...headers,
    ...headersOf(helmet.strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true })),
  ];
  return (req: Request, res: Response, next: NextFunction): void => {
    for (const [name, value] of httpsPublicUrl || req.secure ? withHsts : headers)
      res.setHeader(name, value);
    next();
  };
}

/**
 * The headers a helmet middleware sets, read once: with no directive computed per request they
 * are the same for every answer, so each request copies them rather than running a dozen
 * middlewares that rebuild them.
 */
function headersOf(
  middleware: (req: Request, res: Response, next: (error?: unknown) => void) => void,
): [string, string][] {
  const set: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => set.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let failed: unknown = null;
  middleware({} as Request, recorder as unknown as Response, (error) => (failed = error ?? null));
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return set;
}

/** The same essentials for the few answers Node writes itself, before Express sees a request. */
export const RAW_SECURITY_HEADERS =
  'X-Content-Type-Options: nosniff\r\n' +
  'Referrer-Policy: no-referrer\r\n' +
  "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n";
