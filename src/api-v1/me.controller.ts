import { Controller, Get, Req } from '@nestjs/common';
import type { Request } from 'express';
import { describeCaller } from '../access/describe-caller.js';
import { RouteAccess, routeContext } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';

@Controller('api/v1/me')
export class MeController {
  /** The REST twin of the `viewer` procedure. */
  @Get()
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/me',
    roles: EVERYONE,
    scopes: [],
    mfaExempt: true,
  })
  me(@Req() req: Request) {
    return describeCaller(routeContext(req));
  }
}
