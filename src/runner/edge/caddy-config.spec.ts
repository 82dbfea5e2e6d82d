import { describe, expect, it } from '@jest/globals';
import { caddyConfig } from './caddy-config.js';

interface Route {
  match?: { host: string[]; path?: string[] }[];
  handle: { handler: string; upstreams?: { dial: string }[]; status_code?: number }[];
}
const routesOf = (json: string) =>
  (JSON.parse(json) as { apps: { http: { servers: { edge: { routes: Route[] } } } } }).apps.http
    .servers.edge.routes;

describe('the edge proxy configuration', () => {
  const sites = [
    { domain: 'b.example.com', pathPrefix: null, upstreams: ['slipway-b:80'] },
    { domain: 'a.example.com', pathPrefix: null, upstreams: ['slipway-a:80'] },
    { domain: 'a.example.com', pathPrefix: '/api/v1', upstreams: ['slipway-v1:8080'] },
    { domain: 'a.example.com', pathPrefix: '/api', upstreams: ['slipway-api:8080'] },
  ];

  it('routes each domain, the longest path prefix first, and answers 404 for the rest', () => {
    const config = caddyConfig(sites);
    const routes = routesOf(config.json);
    expect(routes.map((r) => [r.match?.[0].host[0], r.match?.[0].path?.[0] ?? null])).toEqual([
      ['a.example.com', '/api/v1'],
      ['a.example.com', '/api'],
      ['a.example.com', null],
      ['b.example.com', null],
      [undefined, null],
    ]);
    expect(routes[1].match?.[0].path).toEqual(['/api', '/api/*']);
    expect(routes[1].handle).toEqual([
      { handler: 'reverse_proxy', upstreams: [{ dial: 'slipway-api:8080' }] },
    ]);
    expect(routes[4].handle[0]).toMatchObject({ handler: 'static_response', status_code: 404 });
    expect(config.routes).toBe(4);
  });

  it('keeps its admin API on a socket and gives the same bytes for the same sites', () => {
    const config = caddyConfig(sites);
    expect(JSON.parse(config.json).admin).toEqual({ listen: 'unix//run/caddy-admin.sock' });
    expect(caddyConfig([...sites].reverse())).toEqual(config);
    expect(caddyConfig(sites.slice(1)).sha256).not.toBe(config.sha256);
  });
});
