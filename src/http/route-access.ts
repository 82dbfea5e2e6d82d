import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError } from '../common/app-error.js';

export const ROUTE_ACCESS = 'slipway:route-access';

/**
 * How a REST controller is guarded. `public`: no credentials (sign-up, login). `per-procedure`:
 * the controller runs the guard itself for each call (the /trpc controller). Routes that need a
 * principal declare their roles and scopes with `guarded` and are checked by AccessService.
 */
export type RouteAccessDeclaration =
  | { auth: 'public' }
  | { auth: 'per-procedure' }
  | { auth: 'guarded'; roles: string[]; scopes: string[] };

export const RouteAccess = (declaration: RouteAccessDeclaration) =>
  SetMetadata(ROUTE_ACCESS, declaration);

/** Global and fail-closed: a route without a declaration is never reachable. */
@Injectable()
export class RouteDeclarationGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const declaration = this.reflector.getAllAndOverride<RouteAccessDeclaration | undefined>(
      ROUTE_ACCESS,
      [context.getHandler(), context.getClass()],
    );
    if (!declaration) throw new AppError('NOT_FOUND', 'No such route');
    return true;
  }
}
