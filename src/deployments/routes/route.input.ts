import { IsBoolean, IsIn, IsInt, Matches, Max, MaxLength, Min } from 'class-validator';
import { field, NestedList } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import type { RouteTls } from '../../events/deployments.events.js';

const ROUTE_TLS: readonly RouteTls[] = ['auto', 'off'];

/** Lower-case DNS labels, at least two, the last with a letter (no IP addresses, no wildcards). */
export const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Path segments of unreserved characters, no trailing slash: `/api`, `/v1/hooks`. */
const PATH_PREFIX = /^(?:\/[A-Za-z0-9._~-]+)+$/;
/** A compose service name, as the compose validation accepts it. */
const COMPOSE_SERVICE = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/;

/** The compose service a domain goes to. */
export const RoutedService = () =>
  field(Matches(COMPOSE_SERVICE, { message: 'service names a compose service' }));

/** The container port it listens on. */
export const ContainerPort = () => field(IsInt(), Min(1), Max(65535));

/** `auto` (the default) or `off`, which may be left out. */
export const RouteTlsMode = () =>
  field(Omittable(), IsIn(ROUTE_TLS, { message: `tls is one of ${ROUTE_TLS.join(', ')}` }));

/** At most this many routes per service. */
export const MAX_ROUTES = 20;

/** One route of a service: `domain` (and `pathPrefix`) → compose `service` on container `port`. */
export class RouteInput {
  @Matches(DOMAIN, {
    message: 'domain is a lower-case DNS name such as app.example.com (no IP address, no *)',
  })
  domain!: string;

  @Omittable()
  @MaxLength(200)
  @Matches(PATH_PREFIX, {
    message: 'pathPrefix is /-separated segments of letters, digits, . _ ~ - (no trailing /)',
  })
  pathPrefix?: string;

  @RoutedService()
  service!: string;

  @ContainerPort()
  port!: number;

  /**
   * `auto` (the default): HTTPS with a certificate obtained over ACME, HTTP redirected to it;
   * `off`: plain HTTP only. Every route of a domain says the same.
   */
  @RouteTlsMode()
  tls?: RouteTls;

  /** Send Strict-Transport-Security on the domain's HTTPS answers (needs tls auto). */
  @Omittable()
  @IsBoolean()
  hsts?: boolean;
}

/** A service's whole list of routes (it replaces the list before it; `[]` removes them all). */
export const RouteList = () => NestedList(() => RouteInput, { max: MAX_ROUTES });
