import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { badRequest } from '../common/app-error.js';
import { jsonBody } from '../kernel/json-body.js';
import { validateInput } from '../kernel/input-validation.js';
import { RouteAccess } from '../kernel/route-access.js';
import { DEPLOYERS } from '../kernel/roles.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { inputPart } from '../rpc/pipeline/call-target.js';
import { ServerDiagnosis } from '../runner/observe/server-diagnostics.js';
import { IdParams } from './route-inputs.dto.js';
import { ServerIdParams } from './route-inputs.js';

@Controller('api/v1/servers')
export class ServersController {
  constructor(
    private readonly diagnosis: ServerDiagnosis,
    private readonly pipeline: CallPipeline,
  ) {}

  /**
   * `checkServer` plus Docker and Compose versions and free disk once logged in. Connecting is
   * a side effect (recorded as ServerConnectionChecked), so it is a POST (never a GET a page on
   * another site could make a browser send) and only those who deploy may ask.
   */
  @Post(':id/check')
  @HttpCode(200)
  @RouteAccess({
    auth: 'guarded',
    name: 'POST /api/v1/servers/:id/check',
    project: { server: 'id' },
    roles: DEPLOYERS,
    scopes: ['diagnostics:read'],
    lane: 'command',
    summary:
      'Connects to the server with its pinned host key and reports reachable, host key match, login, Docker and Compose versions and free disk (KiB). No body (or an empty JSON object).',
    params: IdParams,
  })
  async check(@Req() req: Request) {
    return this.pipeline.run(
      req,
      [inputPart(IdParams, () => req.params), inputPart(undefined, () => jsonBody(req))],
      ([{ id }], ctx) => this.diagnosis.run(id, ctx),
    );
  }

  /** `syncServerEdge` for the server of the path. No body (or an empty JSON object). */
  @Post(':id/edge/sync')
  @HttpCode(200)
  @RouteAccess({
    auth: 'guarded',
    name: 'POST /api/v1/servers/:id/edge/sync',
    project: { server: 'serverId' },
    roles: DEPLOYERS,
    scopes: ['server:write'],
    lane: 'command',
    summary:
      'Brings the server’s edge proxy to the configuration its services’ routes derive (syncServerEdge): idempotent, recorded.',
    params: ServerIdParams,
  })
  async syncEdge(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'syncServerEdge', async () => {
      const { id } = (await validateInput(ServerIdParams, { ...req.params })) as ServerIdParams;
      const body = jsonBody(req);
      if (
        body !== undefined &&
        (typeof body !== 'object' || body === null || Object.keys(body).length)
      )
        throw badRequest('No body is taken: the server is named by the path');
      return { serverId: id };
    });
  }
}
