/**
 * What the benchmarks need of Slipway's API, over HTTP: the owner's session, procedure calls,
 * and a service ready to deploy (a server with its host key approved, a service on it).
 */

export interface ApiSession {
  url: string;
  /** Session cookie of the owner (the first account). */
  cookie: string;
}

const FINGERPRINT = `SHA256:${'Qm9vdHN0cmFwcGVkIGhvc3Qga2V5IGZvciB0ZXN0cyE'.slice(0, 43)}`;
const PRIVATE_KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END OPENSSH PRIVATE KEY-----\n';
const COMPOSE = 'services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n    ports: ["8080:80"]\n';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Signs up the first account (the owner) and returns its session. */
export async function signUpOwner(url: string): Promise<ApiSession> {
  const res = await fetch(`${url}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench@example.com',
      password: 'correct horse battery',
      name: 'bench',
    }),
  });
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('slipway_session='))
    ?.split(';')[0];
  if (!cookie) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return { url, cookie };
}

export async function rpc<T>(session: ApiSession, name: string, input: unknown): Promise<T> {
  const res = await fetch(`${session.url}/trpc/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: session.cookie },
    body: JSON.stringify({ json: input }),
  });
  const body = (await res.json()) as { result?: { data: { json: T } }; error?: unknown };
  if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(body.error)}`);
  return body.result!.data.json;
}

/** A server with an approved host key and a service on it; returns the service id. */
export async function readyService(
  session: ApiSession,
  name: string,
  env: { name: string; value: string; secret?: boolean }[] = [],
): Promise<string> {
  const { serverId } = await rpc<{ serverId: string }>(session, 'registerServer', {
    name: `${name}-host`,
    host: '10.0.0.2',
    sshUser: 'deploy',
    privateKey: PRIVATE_KEY,
    hostKeyFingerprint: FINGERPRINT,
  });
  await rpc(session, 'approveServerHostKey', { serverId, fingerprint: FINGERPRINT });
  const { serviceId } = await rpc<{ serviceId: string }>(session, 'registerService', {
    name,
    environment: 'production',
    serverId,
    imageRepository: 'ghcr.io/acme/api',
    compose: COMPOSE,
    env,
    approvalRule: 'none',
  });
  return serviceId;
}

/** A procedure's answer read with GET, as the dashboard reads it. */
export async function read<T>(session: ApiSession, name: string, input: unknown): Promise<T> {
  const res = await fetch(
    `${session.url}/trpc/${name}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
    { headers: { cookie: session.cookie } },
  );
  const body = (await res.json()) as { result?: { data: { json: T } }; error?: unknown };
  if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(body.error)}`);
  return body.result!.data.json;
}
