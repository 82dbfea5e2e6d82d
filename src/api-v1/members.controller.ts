import { Controller, Get, Query } from '@nestjs/common';
import { ListPrincipalsHandler } from '../access/principals.query.js';
import { RouteAccess } from '../kernel/route-access.js';
import { HUMANS } from '../kernel/roles.js';

@Controller('api/v1/members')
export class MembersController {
  constructor(private readonly listPrincipalsHandler: ListPrincipalsHandler) {}

  /** Team members, as the `members` procedure, for REST clients (`?limit=1-100`). */
  @Get()
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/members',
    roles: HUMANS,
    scopes: ['members:read'],
  })
  list(@Query('limit') limit?: string) {
    const n = Math.min(100, Math.max(1, Number.parseInt(limit ?? '50', 10) || 50));
    return this.listPrincipalsHandler.execute('user', n);
  }
}
