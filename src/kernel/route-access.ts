import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { RequestContext } from './request-context.js';
import type { Role } from './roles.js';
import type { Scope } from './scopes.js';
import type { Lane } from './lanes.js';
import type { ProjectTarget } from './procedure.js';
import { AppError } from '../common/app-error.js';

export const ROUTE_ACCESS = 'slipway:route-access';

/**
 * How a REST controller is guarded. `public`: no credentials (sign-up, login). `per-procedure`:
 * the controller runs the guard itself for each call (the /trpc controller). `guarded`: the
 * roles and scopes a caller needs, checked by the same AccessService as procedures (MFA policy
 * included). A guarded route's `lane` is `read` unless declared `command`: a command route's
 * refusals are recorded as rejected commands with the names of its input fields, as a command
 * procedure's are (its successes are recorded by the events it appends).
 *
 * `summary`, `body`, `params` and `query` describe the route for the OpenAPI document: a line of
 * text and the class-validator classes of its JSON body, path parameters and query string.
 */
export type RouteAccessDeclaration = (
  | { auth: 'public' }
  | { auth: 'per-procedure' }
  | {
      auth: 'guarded';
      name: string;
      roles: readonly Role[];
      scopes: readonly Scope[];
      mfaExempt?: boolean;
      lane?: Extract<Lane, 'read' | 'command'>;
      /**
       * What the route acts on, for access per project: judged in that project once its
       * validated input (path, query, body together) names it, as procedures are. A procedure's
       * twin (`CallPipeline.dispatch`) is judged on the procedure's input: name its field.
       */
      project?: ProjectTarget;
      /** As a procedure's `ownOnly`: a token limited to projects may call it. */
      ownOnly?: true;
    }
) &
  RouteDocumentation;

/**
 * What the OpenAPI document says of a route beyond its method and path: a one-line summary and
 * the class-validator classes of its body, path parameters and query (the same classes the
 * route validates its input with, so the document cannot promise other rules).
 */
export interface RouteDocumentation {
  summary?: string;
  body?: new () => object;
  params?: new () => object;
  query?: new () => object;
  /** A body that is not a validated JSON input: its media types and what it is. */
  rawBody?: { types: readonly string[]; description: string };
  /** Request headers the route reads (beyond credentials), e.g. `Last-Event-ID`. */
  headers?: readonly { name: string; description: string }[];
}

export const RouteAccess = (declaration: RouteAccessDeclaration) =>
  SetMetadata(ROUTE_ACCESS, declaration);

declare module 'express-serve-static-core' {
  interface Request {
    slipway?: RequestContext;
  }
}

/** The context the guard built for a guarded route. */
export function routeContext(req: Request): RequestContext {
  if (!req.slipway) throw new AppError('INTERNAL_SERVER_ERROR', 'Route ran without its guard');
  return req.slipway;
}
