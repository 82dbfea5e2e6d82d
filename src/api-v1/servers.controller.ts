import { Controller, Get, Req } from '@nestjs/common';
import type { Request } from 'express';
import { RouteAccess, routeContext } from '../kernel/route-access.js';
import { routeInput } from '../kernel/route-input.js';
import { DEPLOYERS } from '../kernel/roles.js';
import { ServerDiagnosis } from '../runner/observe/server-diagnostics.js';
import { IdParams } from './route-inputs.dto.js';

@Controller('api/v1/servers')
export class ServersController {
  constructor(private readonly diagnosis: ServerDiagnosis) {}

  /**
   * `checkServer` plus Docker and Compose versions and free disk once logged in. Connecting is
   * a side effect (recorded as ServerConnectionChecked), so only those who deploy may ask.
   */
  @Get(':id/check')
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/servers/:id/check',
    roles: DEPLOYERS,
    scopes: ['diagnostics:read'],
    summary:
      'Connects to the server with its pinned host key and reports reachable, host key match, login, Docker and Compose versions and free disk (KiB).',
    params: IdParams,
  })
  async check(@Req() req: Request) {
    const { id } = await routeInput(IdParams, req.params);
    return this.diagnosis.run(id, routeContext(req));
  }
}
