import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AccessService } from '../access/access.service.js';
import { AppError } from '../common/app-error.js';
import {
  inputFieldNames,
  markAuditTarget,
  recordInputFields,
} from '../kernel/audit-attribution.js';
import { ROUTE_ACCESS, type RouteAccessDeclaration } from '../kernel/route-access.js';

/**
 * Refusals of REST routes are audited under `METHOD /pattern`. Guarded routes are in the lane
 * they declare (reads unless `lane: 'command'`); the public ones (sign-up, sign-in, MFA
 * verification, password reset) change state when POSTed.
 */
function laneOf(req: Request, declaration: RouteAccessDeclaration): 'read' | 'command' {
  if (declaration.auth === 'guarded') return declaration.lane ?? 'read';
  return declaration.auth === 'public' && req.method === 'POST' ? 'command' : 'read';
}

function markRoute(req: Request, declaration: RouteAccessDeclaration): void {
  const pattern = typeof req.route?.path === 'string' ? req.route.path : req.path;
  const lane = laneOf(req, declaration);
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
