import { describe, expect, it } from '@jest/globals';
import { validateCompose, type ComposeSummary } from '../compose.js';
import { domainsOf, recordRoutes, routeIssues, routeValues } from './route-rules.js';

const summary = (compose: string): ComposeSummary => {
  const result = validateCompose(compose);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.summary;
};

const stack = summary(`services:
  web:
    image: acme/web:1
    ports: ["127.0.0.1:9000:9000", "8000-8010:8000-8010/udp"]
  worker:
    image: acme/worker:1
  sidecar:
    image: acme/sidecar:1
    network_mode: "service:web"
`);

describe('route rules', () => {
  it('records routes in a stable order, a missing path prefix as null', () => {
    const routes = recordRoutes([
      { domain: 'b.example.com', service: 'web', port: 80 },
      { domain: 'a.example.com', pathPrefix: '/api', service: 'web', port: 80 },
    ]);
    expect(routes).toEqual([
      {
        domain: 'a.example.com',
        pathPrefix: '/api',
        service: 'web',
        port: 80,
        tls: 'auto',
        hsts: false,
      },
      {
        domain: 'b.example.com',
        pathPrefix: null,
        service: 'web',
        port: 80,
        tls: 'auto',
        hsts: false,
      },
    ]);
    expect(domainsOf([...routes, ...routes])).toEqual(['a.example.com', 'b.example.com']);
  });

  it('accepts routes to existing compose services on ports they do not publish', () => {
    const routes = recordRoutes([
      { domain: 'app.example.com', service: 'web', port: 80 },
      { domain: 'app.example.com', pathPrefix: '/jobs', service: 'worker', port: 8080 },
    ]);
    expect(routeIssues(routes, stack)).toEqual([]);
  });

  it('names the route at the index it was given, whatever the recorded order', () => {
    const given = routeValues([
      { domain: 'z.example.com', service: 'web', port: 80 },
      { domain: 'a.example.com', service: 'api', port: 80 },
    ]);
    expect(routeIssues(given, stack)).toEqual([
      { path: 'routes.1.service', message: 'the compose file has no service api' },
    ]);
  });

  it('refuses HSTS without HTTPS, and routes of one domain served two ways', () => {
    const routes = recordRoutes([
      { domain: 'a.example.com', service: 'web', port: 80, tls: 'off', hsts: true },
      { domain: 'b.example.com', service: 'web', port: 80, hsts: true },
      { domain: 'b.example.com', pathPrefix: '/jobs', service: 'worker', port: 80 },
      { domain: 'c.example.com', service: 'web', port: 80, tls: 'off' },
      { domain: 'c.example.com', pathPrefix: '/x', service: 'web', port: 80, tls: 'off' },
    ]);
    expect(routeIssues(routes, stack)).toEqual([
      { path: 'routes.0.hsts', message: 'hsts needs tls auto (HTTPS)' },
      { path: 'routes.2.tls', message: 'every route of b.example.com says the same tls and hsts' },
    ]);
  });

  it('refuses a missing service, network_mode, a published port and a repeated route', () => {
    const routes = recordRoutes([
      { domain: 'a.example.com', service: 'api', port: 80 },
      { domain: 'b.example.com', service: 'sidecar', port: 80 },
      { domain: 'c.example.com', service: 'web', port: 9000 },
      { domain: 'd.example.com', service: 'web', port: 8005 },
      { domain: 'e.example.com', service: 'worker', port: 80 },
      { domain: 'e.example.com', service: 'worker', port: 81 },
    ]);
    expect(routeIssues(routes, stack)).toEqual([
      { path: 'routes.0.service', message: 'the compose file has no service api' },
      {
        path: 'routes.1.service',
        message: 'sidecar sets network_mode, so the edge proxy cannot reach it',
      },
      {
        path: 'routes.2.port',
        message:
          'web publishes port 9000 on the host; a routed port goes through the edge proxy only',
      },
      {
        path: 'routes.3.port',
        message:
          'web publishes port 8005 on the host; a routed port goes through the edge proxy only',
      },
      { path: 'routes.5', message: 'e.example.com is routed twice' },
    ]);
  });
});
