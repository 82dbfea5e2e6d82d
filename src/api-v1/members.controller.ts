import { Controller, Get, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { Members } from '../identity/queries/members.js';
import { RouteAccess, routeContext } from '../kernel/route-access.js';
import { HUMANS } from '../kernel/roles.js';

@Controller('api/v1/members')
export class MembersController {
  constructor(private readonly queries: QueryBus) {}

  /** Team members, as the `members` procedure, for REST clients (`?limit=1-100`). */
  @Get()
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/members',
    roles: HUMANS,
    scopes: ['members:read'],
  })
  list(@Req() req: Request, @Query('limit') limit?: string) {
    const n = Math.min(100, Math.max(1, Number.parseInt(limit ?? '50', 10) || 50));
    return this.queries.execute(new Members({ limit: n }, routeContext(req)));
  }
}
