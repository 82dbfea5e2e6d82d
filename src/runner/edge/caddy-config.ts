import { createHash } from 'node:crypto';

/** Where the edge proxy's admin API listens: a socket inside its container, never a port. */
export const EDGE_ADMIN = 'unix//run/caddy-admin.sock';
/** Where the configuration's directory is mounted in the proxy's container (read-only). */
export const EDGE_CONFIG_DIR = '/etc/slipway-edge';
/** Where the proxy keeps certificates and ACME accounts: a named volume, kept across upgrades. */
export const EDGE_STORAGE = '/data/caddy';

/**
 * Where the proxy reads the hosts it dials: one file per upstream slot, named `<key>.<slot>`,
 * holding a host on the edge network (an address, or a compose service's edge alias). Caddy
 * reads the file at each request (`{file.*}`, Caddy 2.8 and later), so a switch rewrites files
 * and loads no configuration: a reload would close connections whose request was not yet read.
 */
export const EDGE_UPSTREAMS_DIR = `${EDGE_CONFIG_DIR}/upstreams`;
export const upstreamFile = (key: string, slot: number) => `${key}.${slot}`;

/** A routed compose service's upstream slots: the files' key and how many there are. */
export interface EdgeUpstreamSlots {
  key: string;
  slots: number;
}

/** One routed domain (and path prefix) and the upstream slots (and port) it goes to. */
export interface EdgeSite {
  domain: string;
  pathPrefix: string | null;
  upstream: EdgeUpstreamSlots;
  port: number;
  /** Served on HTTPS with an ACME certificate (HTTP redirects there); else plain HTTP. */
  tls: boolean;
  /** Strict-Transport-Security on its HTTPS answers. */
  hsts: boolean;
}

/** Where certificates come from. */
export interface EdgeAcme {
  ca: string;
  email: string | null;
  /** The PEM of the roots the ACME server's HTTPS is trusted with, or null for the system's. */
  caRootPem: string | null;
}

/** The edge proxy's whole configuration, and its SHA-256 (what a sync compares). */
export interface EdgeConfig {
  json: string;
  sha256: string;
  routes: number;
  /** The domains the proxy obtains certificates for. */
  certificates: string[];
  /** The file the configuration names for `caRootPem` (in EDGE_CONFIG_DIR), or null. */
  caRootFile: string | null;
}

/** Longer path prefixes first within a domain, so the most specific route answers. */
function bySpecificity(a: EdgeSite, b: EdgeSite): number {
  if (a.domain !== b.domain) return a.domain.localeCompare(b.domain);
  return (b.pathPrefix?.length ?? -1) - (a.pathPrefix?.length ?? -1);
}

const HSTS = {
  handler: 'headers',
  // Deferred: set after the upstream's own headers, so there is one value, ours.
  response: { set: { 'Strict-Transport-Security': ['max-age=31536000'] }, deferred: true },
};

function route(site: EdgeSite) {
  const match: Record<string, string[]> = { host: [site.domain] };
  if (site.pathPrefix) match.path = [site.pathPrefix, `${site.pathPrefix}/*`];
  const { key, slots } = site.upstream;
  const upstreams = Array.from({ length: slots }, (_, slot) => ({
    dial: `{file.${EDGE_UPSTREAMS_DIR}/${upstreamFile(key, slot)}}:${site.port}`,
  }));
  const proxy = { handler: 'reverse_proxy', upstreams };
  return {
    match: [match],
    handle: site.tls && site.hsts ? [HSTS, proxy] : [proxy],
    terminal: true,
  };
}

const notFound = { handle: [{ handler: 'static_response', status_code: 404, body: 'No route\n' }] };

/** HTTP to HTTPS for the domains with certificates, path and query kept. */
const redirect = (domains: string[]) => ({
  match: [{ host: domains }],
  handle: [
    {
      handler: 'static_response',
      status_code: 308,
      headers: { Location: ['https://{http.request.host}{http.request.uri}'] },
    },
  ],
  terminal: true,
});

function issuer(acme: EdgeAcme, caRootFile: string | null) {
  return {
    module: 'acme',
    ca: acme.ca,
    ...(acme.email ? { email: acme.email } : {}),
    ...(caRootFile ? { trusted_roots_pem_files: [`${EDGE_CONFIG_DIR}/${caRootFile}`] } : {}),
  };
}

/**
 * Caddy's JSON configuration for a server's routes. Plain-HTTP sites are served on :80; sites
 * with TLS on :443, with certificates Caddy obtains and renews from the ACME CA (the HTTP-01
 * challenge is answered on :80 before any route), and :80 redirects them to HTTPS. Any other
 * host or path gets a 404 (Caddy would answer an empty 200). Upstreams are named by their slot
 * files only, so which containers answer is not part of it. The same sites give the same bytes,
 * so a sync that finds the same SHA-256 has nothing to load; the CA root's file is named after
 * its content, so a new root is a new configuration.
 */
export function caddyConfig(sites: readonly EdgeSite[], acme: EdgeAcme): EdgeConfig {
  const sorted = [...sites].sort(bySpecificity);
  const plain = sorted.filter((s) => !s.tls).map(route);
  const secure = sorted.filter((s) => s.tls).map(route);
  const certificates = [...new Set(sorted.filter((s) => s.tls).map((s) => s.domain))];
  const caRootFile =
    certificates.length && acme.caRootPem
      ? `acme-roots-${createHash('sha256').update(acme.caRootPem).digest('hex').slice(0, 16)}.pem`
      : null;
  const servers: Record<string, unknown> = {
    edge: {
      listen: [':80'],
      automatic_https: { disable: true },
      routes: [...plain, ...(certificates.length ? [redirect(certificates)] : []), notFound],
    },
  };
  if (certificates.length)
    servers['edge-tls'] = {
      listen: [':443'],
      // The redirects are the :80 server's, explicit above.
      automatic_https: { disable_redirects: true },
      routes: [...secure, notFound],
    };
  const config = {
    admin: { listen: EDGE_ADMIN },
    storage: { module: 'file_system', root: EDGE_STORAGE },
    apps: {
      http: { http_port: 80, https_port: 443, servers },
      ...(certificates.length
        ? {
            tls: {
              automation: {
                policies: [{ subjects: certificates, issuers: [issuer(acme, caRootFile)] }],
              },
            },
          }
        : {}),
    },
  };
  const json = `${JSON.stringify(config, null, 2)}\n`;
  return {
    json,
    sha256: createHash('sha256').update(json).digest('hex'),
    routes: plain.length + secure.length,
    certificates,
    caRootFile,
  };
}
