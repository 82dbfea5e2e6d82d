// The session routes under /api/auth (docs/security.md: Identity and access). Their bodies are the
// server's input classes, imported as types; their answers are written here as docs/security.md
// documents them, since a controller's literal answers widen to plain strings.
import type { LoginInput } from '../../../src/identity/commands/log-in.handler.js';
import type {
  RequestPasswordResetInput,
  ResetPasswordInput,
} from '../../../src/identity/commands/password-reset.handlers.js';
import type { SignedUpUser, SignUpInput } from '../../../src/identity/commands/sign-up.handler.js';
import type { LoginVerifyInput } from '../../../src/identity/commands/verify-login.handler.js';
import type { AcceptInviteInput } from '../../../src/identity/invites/invite-use.handlers.js';
import { errorFromAnswer, networkError } from '../../../client/src/index.js';

/** Only the data fields of an input class. */
type Body<T> = { [K in keyof T]: T[K] };

export type LoginAnswer =
  { status: 'authenticated' } | { status: 'mfa_required'; challenge: string };

async function send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: method === 'POST' ? { 'Content-Type': 'application/json' } : {},
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
  } catch (error) {
    throw networkError(error);
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) throw errorFromAnswer(res.status, json, res.headers.get('retry-after'));
  return json as T;
}

/** Where a sign-in through a provider starts: a full navigation, off to the provider. */
export const ssoStartUrl = (providerId: string, returnTo: string | null) =>
  `/api/auth/sso/${encodeURIComponent(providerId)}/start${
    returnTo ? `?${new URLSearchParams({ returnTo })}` : ''
  }`;

export const auth = {
  /** Whether the service has its owner yet (with no account, sign-up makes the owner). */
  firstRun: () => send<{ ownerExists: boolean; openSignup: boolean }>('GET', '/api/auth/first-run'),
  acceptInvite: (body: Body<AcceptInviteInput>) =>
    send<{ user: { id: string; email: string; name: string; role: string } }>(
      'POST',
      '/api/auth/accept-invite',
      body,
    ),
  signUp: (body: Body<SignUpInput>) => send<SignedUpUser>('POST', '/api/auth/sign-up', body),
  logIn: (body: Body<LoginInput>) => send<LoginAnswer>('POST', '/api/auth/login', body),
  verify: (body: Body<LoginVerifyInput>) =>
    send<{ status: 'authenticated' }>('POST', '/api/auth/login/verify', body),
  logOut: () => send<{ status: 'logged_out' }>('POST', '/api/auth/logout', {}),
  requestReset: (body: Body<RequestPasswordResetInput>) =>
    send<{ status: 'accepted'; message: string }>('POST', '/api/auth/request-password-reset', body),
  /** The identity providers a person may sign in through (none: email and password only). */
  ssoProviders: () =>
    send<{ providers: { providerId: string; displayName: string }[] }>(
      'GET',
      '/api/auth/sso/providers',
    ),
  resetPassword: (body: Body<ResetPasswordInput>) =>
    send<{ status: 'password_changed' }>('POST', '/api/auth/reset-password', body),
};
