import type { FieldIssue } from '../../common/app-error.js';
import type { RouteTls, ServiceRoute } from '../../events/deployments.events.js';
import type { ComposeSummary } from '../compose.js';

type RouteFields = {
  domain: string;
  pathPrefix?: string | null;
  service: string;
  port: number;
  tls?: RouteTls;
  hsts?: boolean;
};

/** The routes as given, with every default filled in (no path prefix is `null`). */
export function routeValues(routes: RouteFields[]): ServiceRoute[] {
  return routes.map((r) => ({
    domain: r.domain,
    pathPrefix: r.pathPrefix ?? null,
    service: r.service,
    port: r.port,
    tls: r.tls ?? 'auto',
    hsts: r.hsts ?? false,
  }));
}

/** The routes as recorded: defaults filled in, in a stable order. */
export function recordRoutes(routes: RouteFields[]): ServiceRoute[] {
  return routeValues(routes).sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
}

const routeKey = (r: ServiceRoute) => `${r.domain}${r.pathPrefix ?? ''}`;

/** How a route's domain is served, older routes (recorded without it) included. */
export function routeTls(route: ServiceRoute): { tls: RouteTls; hsts: boolean } {
  return { tls: route.tls ?? 'auto', hsts: route.hsts ?? false };
}

/** The distinct domains a list of routes names. */
export function domainsOf(routes: readonly ServiceRoute[] | undefined): string[] {
  return [...new Set((routes ?? []).map((r) => r.domain))].sort();
}

/** The container port a short port mapping publishes (`127.0.0.1:8080:80/tcp` → 80-80). */
function containerPorts(mapping: string): [number, number] | null {
  const target =
    mapping
      .replace(/\/\w+$/, '')
      .split(':')
      .pop() ?? '';
  const [from, to] = target.split('-').map(Number);
  if (!Number.isInteger(from)) return null;
  return [from, Number.isInteger(to) ? to : from];
}

/**
 * What keeps routes from working with a compose definition: a route to a compose service that
 * does not exist, to one that shares another container's network (`network_mode`), or to a
 * port that service also publishes on the host (traffic would bypass the proxy), the same
 * domain and path twice, HSTS without HTTPS, and routes of one domain served two ways.
 */
export function routeIssues(
  routes: readonly ServiceRoute[],
  compose: ComposeSummary,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const document = compose.document as { services?: Record<string, Record<string, unknown>> };
  const seen = new Set<string>();
  const served = new Map<string, string>();
  routes.forEach((route, i) => {
    const at = `routes.${i}`;
    if (seen.has(routeKey(route)))
      issues.push({ path: at, message: `${routeKey(route)} is routed twice` });
    seen.add(routeKey(route));
    const { tls, hsts } = routeTls(route);
    if (hsts && tls === 'off')
      issues.push({ path: `${at}.hsts`, message: 'hsts needs tls auto (HTTPS)' });
    const how = `tls ${tls}, hsts ${hsts}`;
    if ((served.get(route.domain) ?? how) !== how)
      issues.push({
        path: `${at}.tls`,
        message: `every route of ${route.domain} says the same tls and hsts`,
      });
    served.set(route.domain, served.get(route.domain) ?? how);
    const service = compose.services.find((s) => s.name === route.service);
    if (!service) {
      issues.push({
        path: `${at}.service`,
        message: `the compose file has no service ${route.service}`,
      });
      return;
    }
    if (document.services?.[route.service]?.network_mode !== undefined)
      issues.push({
        path: `${at}.service`,
        message: `${route.service} sets network_mode, so the edge proxy cannot reach it`,
      });
    const published = service.ports.some((p) => {
      const range = containerPorts(p);
      return range !== null && route.port >= range[0] && route.port <= range[1];
    });
    if (published)
      issues.push({
        path: `${at}.port`,
        message: `${route.service} publishes port ${route.port} on the host; a routed port goes through the edge proxy only`,
      });
  });
  return issues;
}
