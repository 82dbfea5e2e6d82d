import request from 'supertest';

export const PASSWORD = 'correct horse battery staple';

export interface Account {
  userId: string;
  role: string;
  cookie: string;
}

/** Signs up through the real endpoint; the first account of a data directory is the owner. */
export async function signUp(
  url: string,
  email: string,
  name = email.split('@')[0],
): Promise<Account> {
  const res = await request(url)
    .post('/api/auth/sign-up')
    .send({ email, password: PASSWORD, name });
  if (res.status !== 201)
    throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    userId: res.body.user.id,
    role: res.body.user.role,
    cookie: sessionCookie(res.headers['set-cookie']),
  };
}

export async function logIn(url: string, email: string, password = PASSWORD): Promise<string> {
  const res = await request(url).post('/api/auth/login').send({ email, password });
  if (res.status !== 200)
    throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return sessionCookie(res.headers['set-cookie']);
}

export function sessionCookie(header: string | string[] | undefined): string {
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const found = all.find((c) => c.startsWith('slipway_session='));
  if (!found) throw new Error('no session cookie set');
  return found.split(';')[0];
}

export interface Minted {
  token: string;
  tokenId: string;
}

/** A token for the cookie's own user via `createToken`. */
export async function createToken(
  url: string,
  cookie: string,
  scopes: string[],
  expiresInDays?: number,
): Promise<Minted> {
  const res = await request(url)
    .post('/trpc/createToken')
    .set('Cookie', cookie)
    .send({ json: { tokenName: `t-${scopes.join('-')}`.slice(0, 80), scopes, expiresInDays } });
  if (res.status !== 200)
    throw new Error(`createToken failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.data.json;
}

export async function call(
  url: string,
  method: 'GET' | 'POST',
  name: string,
  auth: Record<string, string>,
  input?: unknown,
) {
  if (method === 'GET') {
    const query =
      input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
    return request(url).get(`/trpc/${name}${query}`).set(auth);
  }
  return request(url)
    .post(`/trpc/${name}`)
    .set(auth)
    .send({ json: input ?? {} });
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
export const cookieAuth = (cookie: string) => ({ Cookie: cookie });

/** Signs up the given role's user (the team's owner must exist) and lets the owner grant the role. */
export async function memberWithRole(
  url: string,
  owner: Record<string, string>,
  email: string,
  role: 'admin' | 'operator' | 'viewer',
): Promise<Record<string, string>> {
  const user = await signUp(url, email);
  if (role !== 'viewer') {
    const res = await call(url, 'POST', 'changeUserRole', owner, { userId: user.userId, role });
    if (res.status !== 200) throw new Error(`changeUserRole failed: ${JSON.stringify(res.body)}`);
  }
  return cookieAuth(user.cookie);
}
