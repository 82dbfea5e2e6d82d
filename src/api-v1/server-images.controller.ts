import { Controller, Delete, Get, HttpCode, Post, Put, Req } from '@nestjs/common';
import type { Request } from 'express';
import { IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { badRequest } from '../common/app-error.js';
import { Omittable } from '../common/omittable.js';
import { validateInput } from '../kernel/input-validation.js';
import { RouteAccess } from '../kernel/route-access.js';
import { DEPLOYERS, EVERYONE } from '../kernel/roles.js';
import { ImageOperations } from '../runner/images/image-operations.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { inputPart } from '../rpc/pipeline/call-target.js';
import { ServerIdParams, declaredLength, drain, requireContentType } from './route-inputs.js';

const TAR_TYPES = ['application/x-tar', 'application/octet-stream'];

export class ImageReferenceBody {
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  reference!: string;
}

export class PruneBody {
  @Omittable()
  @IsBoolean()
  all?: boolean;
}

/**
 * The REST twins of the image procedures (dispatched through the call pipeline with the path's
 * server id), and `docker load` of a streamed tarball.
 */
@Controller('api/v1/servers/:id/images')
export class ServerImagesController {
  constructor(
    private readonly pipeline: CallPipeline,
    private readonly images: ImageOperations,
  ) {}

  private async serverId(req: Request): Promise<string> {
    return ((await validateInput(ServerIdParams, { ...req.params })) as ServerIdParams).id;
  }

  @Get()
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/servers/:id/images',
    project: { server: 'serverId' },
    roles: EVERYONE,
    scopes: ['server:read'],
    summary: 'The images on a server (docker image ls over SSH)',
    params: ServerIdParams,
  })
  async list(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'serverImages', async () => ({
      serverId: await this.serverId(req),
    }));
  }

  @Post('pull')
  @HttpCode(200)
  @RouteAccess({
    auth: 'guarded',
    name: 'POST /api/v1/servers/:id/images/pull',
    project: { server: 'serverId' },
    roles: DEPLOYERS,
    scopes: ['server:write'],
    lane: 'command',
    summary: 'Pulls an image on a server (docker pull over SSH)',
    params: ServerIdParams,
    body: ImageReferenceBody,
  })
  async pull(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'pullServerImage', () => this.withServer(req));
  }

  @Post('prune')
  @HttpCode(200)
  @RouteAccess({
    auth: 'guarded',
    name: 'POST /api/v1/servers/:id/images/prune',
    project: { server: 'serverId' },
    roles: DEPLOYERS,
    scopes: ['server:write'],
    lane: 'command',
    summary: 'Removes dangling images (all: every unused one) from a server',
    params: ServerIdParams,
    body: PruneBody,
  })
  async prune(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'pruneServerImages', () => this.withServer(req));
  }

  @Delete()
  @RouteAccess({
    auth: 'guarded',
    name: 'DELETE /api/v1/servers/:id/images',
    project: { server: 'serverId' },
    roles: DEPLOYERS,
    scopes: ['server:write'],
    lane: 'command',
    summary: 'Removes an image (?reference= a reference or an image ID) from a server',
    params: ServerIdParams,
    query: ImageReferenceBody,
  })
  async remove(@Req() req: Request) {
    return this.pipeline.dispatch(req, 'removeServerImage', async () => ({
      ...req.query,
      serverId: await this.serverId(req),
    }));
  }

  @Put()
  @RouteAccess({
    auth: 'guarded',
    name: 'PUT /api/v1/servers/:id/images',
    project: { server: 'id' },
    roles: DEPLOYERS,
    scopes: ['server:write'],
    lane: 'command',
    summary: 'Streams a docker save tarball to the server and docker loads it there (capped)',
    params: ServerIdParams,
    rawBody: { types: TAR_TYPES, description: 'A `docker save` tarball' },
  })
  async load(@Req() req: Request) {
    try {
      return await this.pipeline.run(
        req,
        [inputPart(ServerIdParams, () => ({ ...req.params }))],
        ([{ id }], ctx) => {
          requireContentType(req, TAR_TYPES);
          return this.images.load(id, req, declaredLength(req), ctx);
        },
      );
    } catch (error) {
      drain(req);
      throw error;
    }
  }

  /** The body's fields with the path's server id; the body itself names no server. */
  private async withServer(req: Request): Promise<object> {
    const serverId = await this.serverId(req);
    const body: unknown = req.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body) || body === null)
      throw badRequest('The body must be a JSON object');
    if ('serverId' in body)
      throw badRequest('The server is named by the path', [
        { path: 'serverId', message: 'not in the body' },
      ]);
    return { ...body, serverId };
  }
}
