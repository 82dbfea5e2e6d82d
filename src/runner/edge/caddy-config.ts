import { createHash } from 'node:crypto';

/** Where the edge proxy's admin API listens: a socket inside its container, never a port. */
export const EDGE_ADMIN = 'unix//run/caddy-admin.sock';

/** One routed domain (and path prefix) and the `name:port`s on the edge network it goes to. */
export interface EdgeSite {
  domain: string;
  pathPrefix: string | null;
  upstreams: string[];
}

/** The edge proxy's whole configuration, and its SHA-256 (what a sync compares). */
export interface EdgeConfig {
  json: string;
  sha256: string;
  routes: number;
}

/** Longer path prefixes first within a domain, so the most specific route answers. */
function bySpecificity(a: EdgeSite, b: EdgeSite): number {
  if (a.domain !== b.domain) return a.domain.localeCompare(b.domain);
  return (b.pathPrefix?.length ?? -1) - (a.pathPrefix?.length ?? -1);
}

function route(site: EdgeSite) {
  const match: Record<string, string[]> = { host: [site.domain] };
  if (site.pathPrefix) match.path = [site.pathPrefix, `${site.pathPrefix}/*`];
  return {
    match: [match],
    handle: [{ handler: 'reverse_proxy', upstreams: site.upstreams.map((dial) => ({ dial })) }],
    terminal: true,
  };
}

/**
 * Caddy's JSON configuration for a server's routes: one HTTP server on :80, a route per site,
 * and a 404 for any other host or path (Caddy would answer an empty 200). The same sites give
 * the same bytes, so a sync that finds the same SHA-256 has nothing to load.
 */
export function caddyConfig(sites: readonly EdgeSite[]): EdgeConfig {
  const routes = [...sites].sort(bySpecificity).map(route);
  const config = {
    admin: { listen: EDGE_ADMIN },
    apps: {
      http: {
        servers: {
          edge: {
            listen: [':80'],
            automatic_https: { disable: true },
            routes: [
              ...routes,
              { handle: [{ handler: 'static_response', status_code: 404, body: 'No route\n' }] },
            ],
          },
        },
      },
    },
  };
  const json = `${JSON.stringify(config, null, 2)}\n`;
  return { json, sha256: createHash('sha256').update(json).digest('hex'), routes: routes.length };
}
