import { Controller, Get, Req } from '@nestjs/common';
import type { Request } from 'express';
import { RouteAccess } from '../kernel/route-access.js';
import { EVERYONE } from '../kernel/roles.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';

@Controller('api/v1/me')
export class MeController {
  constructor(private readonly pipeline: CallPipeline) {}

  /** The REST twin of the `viewer` procedure. */
  @Get()
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/me',
    ownOnly: true,
    roles: EVERYONE,
    scopes: [],
    mfaExempt: true,
  })
  me(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'viewer', () => undefined);
  }
}
