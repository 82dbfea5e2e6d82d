import { Controller, HttpCode, Post, Put, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  ComposeDeployInput,
  ComposeIntakeHandler,
} from '../deployments/commands/compose-intake.js';
import { Uploads } from '../deployments/uploads/uploads.js';
import { RouteAccess } from '../kernel/route-access.js';
import { DEPLOYERS } from '../kernel/roles.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { inputPart } from '../rpc/pipeline/call-target.js';
import { UploadIdParams, declaredLength, drain, requireContentType } from './route-inputs.js';

const GZIP_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];

/** Deploys from compose files sent with the request, with or without an uploaded context. */
@Controller('api/v1/deploy')
export class DeployController {
  constructor(
    private readonly intake: ComposeIntakeHandler,
    private readonly uploads: Uploads,
    private readonly pipeline: CallPipeline,
  ) {}

  @Post('compose')
  @HttpCode(202)
  @RouteAccess({
    auth: 'guarded',
    name: 'POST /api/v1/deploy/compose',
    project: { service: 'serviceId' },
    roles: DEPLOYERS,
    scopes: ['deploy:start'],
    lane: 'command',
    summary:
      'Deploys a service from compose files (and an uploaded build context): queued, or pending approval as triggerDeploy',
    body: ComposeDeployInput,
  })
  async compose(@Req() req: Request) {
    return this.pipeline.run(req, [inputPart(ComposeDeployInput, () => req.body)], ([input], ctx) =>
      this.intake.execute(input, ctx),
    );
  }

  @Post('uploads')
  @HttpCode(201)
  @RouteAccess({
    auth: 'guarded',
    name: 'POST /api/v1/deploy/uploads',
    // An upload is the caller's alone; the deploy that uses it is judged in its project.
    ownOnly: true,
    roles: DEPLOYERS,
    scopes: ['deploy:start'],
    lane: 'command',
    summary: 'Opens an upload for a build context: an id for the caller alone, expiring in an hour',
  })
  async open(@Req() req: Request) {
    return this.pipeline.run(req, [inputPart(undefined, () => req.body)], (_, ctx) =>
      this.uploads.open(ctx),
    );
  }

  @Put('uploads/:id')
  @RouteAccess({
    auth: 'guarded',
    name: 'PUT /api/v1/deploy/uploads/:id',
    ownOnly: true,
    roles: DEPLOYERS,
    scopes: ['deploy:start'],
    lane: 'command',
    summary:
      'Receives the build context as a gzip tar (streamed; capped; links and paths outside refused)',
    params: UploadIdParams,
    rawBody: { types: GZIP_TYPES, description: 'The build context: a gzip-compressed tar' },
  })
  async receive(@Req() req: Request) {
    try {
      return await this.pipeline.run(
        req,
        [inputPart(UploadIdParams, () => ({ ...req.params }))],
        ([{ id }], ctx) => {
          requireContentType(req, GZIP_TYPES);
          return this.uploads.receive(id, req, declaredLength(req), ctx);
        },
      );
    } catch (error) {
      drain(req);
      throw error;
    }
  }
}
