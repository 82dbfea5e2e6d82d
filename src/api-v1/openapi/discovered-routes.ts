import { Injectable, RequestMethod } from '@nestjs/common';
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  SSE_METADATA,
} from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { ROUTE_ACCESS, type RouteAccessDeclaration } from '../../kernel/route-access.js';

/** One REST route as Nest registered it, with its access declaration. */
export interface DiscoveredRoute {
  method: string;
  /** Express-style pattern: `/api/v1/services/:id/status`. */
  path: string;
  /** `Controller.method`: unique, stable, used as the operation id. */
  handler: string;
  eventStream: boolean;
  /** The status of a success, as Nest sends it (`@HttpCode`, else 201 for POST, 200 others). */
  status: number;
  declaration: RouteAccessDeclaration;
}

const join = (...parts: string[]) =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;

/**
 * Every declared route of the running application under a prefix, read from Nest's route
 * metadata (method, controller and handler paths) and `@RouteAccess`, so a route added anywhere
 * appears without being listed. Routes without a declaration are left out: the guard refuses
 * them as if they did not exist.
 */
@Injectable()
export class DiscoveredRoutes {
  constructor(private readonly discovery: DiscoveryService) {}

  list(prefix: string): DiscoveredRoute[] {
    const scanner = new MetadataScanner();
    const routes: DiscoveredRoute[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!type) continue;
      const base = Reflect.getMetadata(PATH_METADATA, type) as string | string[] | undefined;
      for (const name of scanner.getAllMethodNames(type.prototype)) {
        const handler = (type.prototype as Record<string, unknown>)[name] as object;
        const own = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (own === undefined) continue;
        const declaration = (Reflect.getMetadata(ROUTE_ACCESS, handler) ??
          Reflect.getMetadata(ROUTE_ACCESS, type)) as RouteAccessDeclaration | undefined;
        if (!declaration) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        for (const b of [base ?? ''].flat()) {
          for (const o of [own].flat()) {
            const path = join(b, o);
            if (!path.startsWith(prefix)) continue;
            routes.push({
              method: method.toLowerCase(),
              path,
              handler: `${type.name.replace(/Controller$/, '')}.${name}`,
              eventStream: Reflect.getMetadata(SSE_METADATA, handler) === true,
              status:
                (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ??
                (method === 'POST' ? 201 : 200),
              declaration,
            });
          }
        }
      }
    }
    return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  }
}
