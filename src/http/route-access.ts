import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AccessService } from '../access/access.service.js';
import type { RequestContext } from '../access/request-context.js';
import type { Role } from '../access/roles.js';
import { AppError } from '../common/app-error.js';
import {
  inputFieldNames,
  markAuditTarget,
  recordInputFields,
} from '../audit/refusals/audit-attribution.js';

export const ROUTE_ACCESS = 'slipway:route-access';

/**
 * How a REST controller is guarded. `public`: no credentials (sign-up, login). `per-procedure`:
 * the controller runs the guard itself for each call (the /trpc controller). `guarded`: the
 * roles and scopes a caller needs, checked by the same AccessService as procedures (MFA policy
 * included).
 */
export type RouteAccessDeclaration =
  | { auth: 'public' }
  | { auth: 'per-procedure' }
  | { auth: 'guarded'; name: string; roles: Role[]; scopes: string[]; mfaExempt?: boolean };

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

/**
 * Refusals of REST routes are audited under `METHOD /pattern`. Guarded routes are reads; the
 * public ones (sign-up, sign-in, MFA verification, password reset) change state when POSTed.
 */
function markRoute(req: Request, declaration: RouteAccessDeclaration): void {
  const pattern = typeof req.route?.path === 'string' ? req.route.path : req.path;
  const lane = declaration.auth === 'public' && req.method === 'POST' ? 'command' : 'read';
  markAuditTarget(req, { surface: 'route', name: `${req.method} ${pattern}`, lane });
  if (lane === 'command') recordInputFields(req, () => inputFieldNames(req.body));
}

/** Global and fail-closed: a route without a declaration is never reachable. */
@Injectable()
export class RouteDeclarationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const declaration = this.reflector.getAllAndOverride<RouteAccessDeclaration | undefined>(
      ROUTE_ACCESS,
      [context.getHandler(), context.getClass()],
    );
    if (!declaration) throw new AppError('NOT_FOUND', 'No such route');
    const req = context.switchToHttp().getRequest<Request>();
    if (declaration.auth !== 'per-procedure') markRoute(req, declaration);
    if (declaration.auth === 'guarded') {
      req.slipway = await this.access.authorize({ ...declaration, auth: 'authenticated' }, req);
    }
    return true;
  }
}
