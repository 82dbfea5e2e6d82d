import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AccessService } from '../access/access.service.js';
import type { RequestContext } from '../access/request-context.js';
import type { Role } from '../access/roles.js';
import { AppError } from '../common/app-error.js';

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
    if (declaration.auth === 'guarded') {
      const req = context.switchToHttp().getRequest<Request>();
      req.slipway = await this.access.authorize({ ...declaration, auth: 'authenticated' }, req);
    }
    return true;
  }
}
