import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** A person the test provider knows, by subject. */
export interface IdpUser {
  email: string;
  emailVerified?: boolean;
  name?: string;
  groups?: string[];
  /** What the ID token's `amr` says of this person's sign-in (default `["pwd"]`). */
  amr?: string[];
}

export const IDP_CLIENT_ID = 'slipway-test';
export const IDP_CLIENT_SECRET = 'idp-client-secret-0123456789abcdef';

/** How the provider's front door misbehaves, for the refusal tests. */
export type Tamper = 'none' | 'id-token-signature' | 'id-token-payload';

/**
 * The OpenID-certified `oidc-provider` as a real identity provider on loopback, behind a front
 * door of the test's own: the door forwards everything, and can tamper with the ID token on its
 * way from the token endpoint. The issuer is the door's address.
 */
export interface TestIdp {
  issuer: string;
  users: Map<string, IdpUser>;
  /** The subject the interaction signs in at once; null shows a sign-in form instead. */
  autoLogin: string | null;
  tamper: Tamper;
  /** Seconds an authorization code lives (default 60). */
  codeTtl: number;
  /** The provider itself, at its own address (its discovery names the door as issuer). */
  backendUrl: string;
  stop(): Promise<void>;
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Changes one character of a JWT part: the signature no longer verifies. */
function tamperWith(idToken: string, how: Tamper): string {
  const [header, payload, signature] = idToken.split('.');
  if (how === 'id-token-signature') {
    const flip = signature!.startsWith('A') ? 'B' : 'A';
    return `${header}.${payload}.${flip}${signature!.slice(1)}`;
  }
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<
    string,
    unknown
  >;
  claims.email = 'someone-else@example.com';
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

export async function startTestIdp(redirectUris: string[]): Promise<TestIdp> {
  const door = createServer();
  const doorPort = await listen(door);
  const issuer = `http://127.0.0.1:${doorPort}`;
  const idp: Omit<TestIdp, 'stop' | 'backendUrl'> = {
    issuer,
    users: new Map(),
    autoLogin: null,
    tamper: 'none',
    codeTtl: 60,
  };
  const configuration: Configuration = {
    clients: [
      {
        client_id: IDP_CLIENT_ID,
        client_secret: IDP_CLIENT_SECRET,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: {
      acr: null,
      auth_time: null,
      iss: null,
      sid: null,
      // The ID token says how the person signed in (`amr`), as real providers do.
      openid: ['sub', 'amr'],
      email: ['email', 'email_verified'],
      profile: ['name', 'groups'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: { AuthorizationCode: () => idp.codeTtl },
    findAccount: (_ctx, sub) => {
      const user = idp.users.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: user.email,
          email_verified: user.emailVerified ?? true,
          name: user.name ?? user.email,
          groups: user.groups ?? [],
        }),
      };
    },
    cookies: { keys: ['test-idp-cookie-key-0123456789'] },
    jwks: undefined,
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = true;
  const providerHandler = provider.callback();

  async function finishLogin(req: IncomingMessage, res: ServerResponse, sub: string) {
    const details = await provider.interactionDetails(req, res);
    const user = idp.users.get(sub);
    if (!user) {
      await provider.interactionFinished(req, res, {
        error: 'access_denied',
        error_description: 'unknown user',
      });
      return;
    }
    const grant = new provider.Grant({
      accountId: sub,
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: sub, amr: user.amr ?? ['pwd'] }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  const backend = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const interaction = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
    if (!interaction) {
      providerHandler(req, res);
      return;
    }
    void (async () => {
      if (req.method === 'POST') {
        const form = new URLSearchParams((await readBody(req)).toString());
        await finishLogin(req, res, form.get('login') ?? '');
      } else if (idp.autoLogin) {
        await finishLogin(req, res, idp.autoLogin);
      } else {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          `<!doctype html><title>Test IdP</title><h1>Test IdP sign-in</h1>` +
            `<form method="post" action="/interaction/${interaction[1]}/login">` +
            `<label>Login <input name="login" autofocus></label>` +
            `<button type="submit">Sign in</button></form>`,
        );
      }
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  const backendPort = await listen(backend);
  const backendUrl = `http://127.0.0.1:${backendPort}`;

  door.on('request', (req, res) => {
    void (async () => {
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers.set(k, v);
      }
      headers.set('x-forwarded-host', `127.0.0.1:${doorPort}`);
      headers.set('x-forwarded-proto', 'http');
      const answer = await fetch(`${backendUrl}${req.url}`, {
        method: req.method,
        headers,
        body,
        redirect: 'manual',
      });
      let text = Buffer.from(await answer.arrayBuffer());
      if (idp.tamper !== 'none' && req.url?.startsWith('/token') && answer.ok) {
        const tokens = JSON.parse(text.toString()) as { id_token?: string };
        if (tokens.id_token) tokens.id_token = tamperWith(tokens.id_token, idp.tamper);
        text = Buffer.from(JSON.stringify(tokens));
      }
      res.statusCode = answer.status;
      answer.headers.forEach((value, key) => {
        if (
          ![
            'content-length',
            'content-encoding',
            'transfer-encoding',
            'connection',
            'set-cookie',
          ].includes(key)
        )
          res.setHeader(key, value);
      });
      const cookies = answer.headers.getSetCookie();
      if (cookies.length > 0) res.setHeader('set-cookie', cookies);
      res.end(text);
    })().catch((error: unknown) => {
      res.statusCode = 502;
      res.end(String(error));
    });
  });

  return Object.assign(idp, {
    backendUrl,
    stop: async () => {
      door.closeAllConnections();
      backend.closeAllConnections();
      await Promise.all([new Promise((r) => door.close(r)), new Promise((r) => backend.close(r))]);
    },
  });
}
