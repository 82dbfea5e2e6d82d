import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError } from '../common/app-error.js';
import {
  inputFieldNames,
  markAuditTarget,
  recordInputFields,
  type AuditTarget,
} from '../kernel/audit-attribution.js';
import { ROUTE_ACCESS, type RouteAccessDeclaration } from '../kernel/route-access.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';

/**
 * Refusals of REST routes are audited under `METHOD /pattern`. Guarded routes are in the lane
 * they declare (reads unless `lane: 'command'`); the public ones (sign-up, sign-in, MFA
 * verification, password reset) change state when POSTed.
 */
function auditTarget(req: Request, declaration: RouteAccessDeclaration): AuditTarget {
  const pattern = typeof req.route?.path === 'string' ? req.route.path : req.path;
  const lane =
    declaration.auth === 'guarded'
      ? (declaration.lane ?? 'read')
      : declaration.auth === 'public' && req.method === 'POST'
        ? 'command'
        : 'read';
  return { surface: 'route', name: `${req.method} ${pattern}`, lane };
}

/**
 * Global and fail-closed: a route without a declaration is never reachable, and a guarded one
 * is admitted by the call pipeline (attribution, authentication, role ∩ scopes, MFA policy)
 * before its handler runs; the handler then runs the rest of the pipeline (validation, the
 * work, refusal and no-effect records) with `CallPipeline.run` or `dispatch`.
 */
@Injectable()
export class RouteDeclarationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly pipeline: CallPipeline,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const declaration = this.reflector.getAllAndOverride<RouteAccessDeclaration | undefined>(
      ROUTE_ACCESS,
      [context.getHandler(), context.getClass()],
    );
    if (!declaration) throw new AppError('NOT_FOUND', 'No such route');
    if (declaration.auth === 'per-procedure') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const audit = auditTarget(req, declaration);
    const fields = audit.lane === 'command' ? () => inputFieldNames(req.body) : undefined;
    if (declaration.auth === 'guarded') {
      const access = { ...declaration, auth: 'authenticated' as const };
      req.slipway = await this.pipeline.admit(req, { access, audit }, { fields });
    } else {
      markAuditTarget(req, audit);
      if (fields) recordInputFields(req, fields);
    }
    return true;
  }
}
