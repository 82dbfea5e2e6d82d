import { Controller, Get, Req } from '@nestjs/common';
import type { Request } from 'express';
import { RouteAccess } from '../kernel/route-access.js';
import { HUMANS } from '../kernel/roles.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { LimitQuery, toInt } from './route-inputs.dto.js';

@Controller('api/v1/members')
export class MembersController {
  constructor(private readonly pipeline: CallPipeline) {}

  /**
   * Team members, as the `members` procedure, for REST clients: `?limit=` 1-100 (default 50),
   * validated as the procedure's input is.
   */
  @Get()
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/members',
    roles: HUMANS,
    scopes: ['members:read'],
    summary: 'Team members, as the members procedure answers them',
    query: LimitQuery,
  })
  list(@Req() req: Request) {
    const { limit } = req.query;
    return this.pipeline.dispatch(req, 'members', () =>
      limit === undefined ? {} : { limit: toInt({ value: limit }) },
    );
  }
}
