import { describe, expect, it } from '@jest/globals';
import { caddyConfig, type EdgeAcme, type EdgeSite } from './caddy-config.js';

interface Route {
  match?: { host: string[]; path?: string[] }[];
  handle: {
    handler: string;
    upstreams?: { dial: string }[];
    status_code?: number;
    headers?: Record<string, string[]>;
    response?: { set: Record<string, string[]> };
  }[];
}
interface Server {
  listen: string[];
  routes: Route[];
  automatic_https: Record<string, boolean>;
}
interface Parsed {
  admin: { listen: string };
  apps: {
    http: { servers: Record<string, Server> };
    tls?: {
      automation: {
        policies: { subjects: string[]; issuers: Record<string, unknown>[] }[];
      };
    };
  };
}
const parse = (json: string) => JSON.parse(json) as Parsed;
const routesOf = (json: string, server = 'edge') => parse(json).apps.http.servers[server].routes;
const hostAndPath = (routes: Route[]) =>
  routes.map((r) => [r.match?.[0].host.join(',') ?? null, r.match?.[0].path?.[0] ?? null]);

const ACME: EdgeAcme = {
  ca: 'https://acme.example/dir',
  email: null,
  caRootPem: null,
};
/** `key:port` routed to one upstream slot, or `key*n:port` to n. */
const site = (domain: string, pathPrefix: string | null, upstream: string, more = {}): EdgeSite => {
  const [, key, slots, port] = /^([^*:]+)(?:\*(\d+))?:(\d+)$/.exec(upstream)!;
  return {
    domain,
    pathPrefix,
    upstream: { key, slots: Number(slots ?? 1) },
    port: Number(port),
    tls: false,
    hsts: false,
    ...more,
  };
};
const dial = (file: string, port: number) => ({
  dial: `{file./etc/slipway-edge/upstreams/${file}}:${port}`,
});

describe('the edge proxy configuration', () => {
  const sites = [
    site('b.example.com', null, 'slipway-b:80'),
    site('a.example.com', null, 'slipway-a:80'),
    site('a.example.com', '/api/v1', 'slipway-v1:8080'),
    site('a.example.com', '/api', 'slipway-api:8080'),
  ];

  it('routes each domain, the longest path prefix first, and answers 404 for the rest', () => {
    const config = caddyConfig(sites, ACME);
    const routes = routesOf(config.json);
    expect(hostAndPath(routes)).toEqual([
      ['a.example.com', '/api/v1'],
      ['a.example.com', '/api'],
      ['a.example.com', null],
      ['b.example.com', null],
      [null, null],
    ]);
    expect(routes[1].match?.[0].path).toEqual(['/api', '/api/*']);
    // Each upstream is a slot file read at every request, so switching hosts loads nothing.
    expect(routes[1].handle).toEqual([
      { handler: 'reverse_proxy', upstreams: [dial('slipway-api.0', 8080)] },
    ]);
    expect(routes[4].handle[0]).toMatchObject({ handler: 'static_response', status_code: 404 });
    expect(config.routes).toBe(4);
    // Plain HTTP only: no HTTPS server, no certificates wanted.
    expect(Object.keys(parse(config.json).apps.http.servers)).toEqual(['edge']);
    expect(parse(config.json).apps.tls).toBeUndefined();
    expect(config.certificates).toEqual([]);
  });

  it('dials one slot file per replica', () => {
    const routes = routesOf(
      caddyConfig([site('r.example.com', null, 'slipway-r*3:80')], ACME).json,
    );
    expect(routes[0].handle[0].upstreams).toEqual([
      dial('slipway-r.0', 80),
      dial('slipway-r.1', 80),
      dial('slipway-r.2', 80),
    ]);
  });

  it('keeps its admin API on a socket and gives the same bytes for the same sites', () => {
    const config = caddyConfig(sites, ACME);
    expect(parse(config.json).admin).toEqual({ listen: 'unix//run/caddy-admin.sock' });
    expect(caddyConfig([...sites].reverse(), ACME)).toEqual(config);
    expect(caddyConfig(sites.slice(1), ACME).sha256).not.toBe(config.sha256);
  });

  describe('given domains with TLS', () => {
    const secure = [
      site('shop.example.com', null, 'slipway-web:80', { tls: true, hsts: true }),
      site('shop.example.com', '/api', 'slipway-api:8080', { tls: true, hsts: true }),
      site('docs.example.com', null, 'slipway-docs:80', { tls: true }),
      site('plain.example.com', null, 'slipway-plain:80'),
    ];
    const acme: EdgeAcme = {
      ca: 'https://pebble.test:14000/dir',
      email: 'ops@example.com',
      caRootPem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
    };

    it('serves them on :443 and redirects their HTTP there; plain sites stay on :80', () => {
      const config = caddyConfig(secure, acme);
      const servers = parse(config.json).apps.http.servers;
      expect(servers.edge.listen).toEqual([':80']);
      expect(servers['edge-tls'].listen).toEqual([':443']);
      expect(hostAndPath(servers.edge.routes)).toEqual([
        ['plain.example.com', null],
        ['docs.example.com,shop.example.com', null],
        [null, null],
      ]);
      expect(servers.edge.routes[1].handle[0]).toEqual({
        handler: 'static_response',
        status_code: 308,
        headers: { Location: ['https://{http.request.host}{http.request.uri}'] },
      });
      expect(hostAndPath(servers['edge-tls'].routes)).toEqual([
        ['docs.example.com', null],
        ['shop.example.com', '/api'],
        ['shop.example.com', null],
        [null, null],
      ]);
      expect(servers['edge-tls'].automatic_https).toEqual({ disable_redirects: true });
      expect(config.routes).toBe(4);
    });

    it('sends HSTS only where it is asked for, after the upstream answered', () => {
      const routes = routesOf(caddyConfig(secure, acme).json, 'edge-tls');
      expect(routes[0].handle.map((h) => h.handler)).toEqual(['reverse_proxy']);
      expect(routes[1].handle[0]).toEqual({
        handler: 'headers',
        response: { set: { 'Strict-Transport-Security': ['max-age=31536000'] }, deferred: true },
      });
    });

    it('obtains their certificates from the configured CA, trusting its root file', () => {
      const config = caddyConfig(secure, acme);
      expect(config.certificates).toEqual(['docs.example.com', 'shop.example.com']);
      expect(config.caRootFile).toMatch(/^acme-roots-[0-9a-f]{16}\.pem$/);
      expect(parse(config.json).apps.tls?.automation.policies).toEqual([
        {
          subjects: ['docs.example.com', 'shop.example.com'],
          issuers: [
            {
              module: 'acme',
              ca: 'https://pebble.test:14000/dir',
              email: 'ops@example.com',
              trusted_roots_pem_files: [`/etc/slipway-edge/${config.caRootFile}`],
            },
          ],
        },
      ]);
      // A new root is a new file name, so a new configuration the proxy loads.
      const other = caddyConfig(secure, { ...acme, caRootPem: `${acme.caRootPem}\n` });
      expect(other.caRootFile).not.toBe(config.caRootFile);
      expect(other.sha256).not.toBe(config.sha256);
      expect(caddyConfig(secure, { ...acme, caRootPem: null }).caRootFile).toBeNull();
    });
  });
});
