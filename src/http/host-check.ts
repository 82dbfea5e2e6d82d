import { AppError } from '../common/app-error.js';
import { hostGuard } from './host-guard.js';

/**
 * Refuses, before any route (dashboard, /trpc, /api, /mcp) runs, a request whose Host is not
 * one of this server's names (see AllowedHosts): against DNS rebinding, where a page on an
 * attacker's name that resolves here would be same-origin with us and could, say, create the
 * first owner. 403 like the cross-site refusal (a policy refusal, not a retryable
 * misdirection); the message names the setting an operator would change.
 */
export const hostCheck = hostGuard((req, allowed, arrivalOf) =>
  allowed.allowsHost(req.header('host'), arrivalOf(req))
    ? null
    : new AppError(
        'FORBIDDEN',
        'This server does not answer to the host this request was sent to; if it is one of its names, add its URL to SLIPWAY_PUBLIC_URL',
        { reason: 'HOST_NOT_ALLOWED' },
      ),
);
