import { Controller, Delete, Get, HttpCode, Post, Put, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { badRequest } from '../common/app-error.js';
import { Omittable } from '../common/omittable.js';
import { validateInput } from '../kernel/input-validation.js';
import { RouteAccess, routeContext } from '../kernel/route-access.js';
import { DEPLOYERS, EVERYONE } from '../kernel/roles.js';
import { ImageOperations } from '../runner/images/image-operations.js';
import { ServerImageInput } from '../runner/images/image-inputs.js';
import { PruneServerImages, PruneServerImagesInput } from '../runner/images/prune-server-images.js';
import { PullServerImage } from '../runner/images/pull-server-image.js';
import { RemoveServerImage } from '../runner/images/remove-server-image.js';
import { ServerImages } from '../runner/images/server-images.js';
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

/** The REST twins of the image procedures, and `docker load` of a streamed tarball. */
@Controller('api/v1/servers/:id/images')
export class ServerImagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly images: ImageOperations,
  ) {}

  private async serverId(req: Request): Promise<string> {
    return ((await validateInput(ServerIdParams, { ...req.params })) as ServerIdParams).id;
  }

  @Get()
  @RouteAccess({
    auth: 'guarded',
    name: 'GET /api/v1/servers/:id/images',
    roles: EVERYONE,
    scopes: ['server:read'],
    summary: 'The images on a server (docker image ls over SSH)',
    params: ServerIdParams,
  })
  async list(@Req() req: Request) {
    const input = { serverId: await this.serverId(req) };
    return this.queries.execute(new ServerImages(input, routeContext(req)));
  }

  @Post('pull')
  @HttpCode(200)
  @RouteAccess({
    auth: 'guarded',
    name: 'POST /api/v1/servers/:id/images/pull',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    lane: 'command',
    summary: 'Pulls an image on a server (docker pull over SSH)',
    params: ServerIdParams,
    body: ImageReferenceBody,
  })
  async pull(@Req() req: Request) {
    const input = await this.withServer(req, ServerImageInput);
    return this.commands.execute(new PullServerImage(input, routeContext(req)));
  }

  @Post('prune')
  @HttpCode(200)
  @RouteAccess({
    auth: 'guarded',
    name: 'POST /api/v1/servers/:id/images/prune',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    lane: 'command',
    summary: 'Removes dangling images (all: every unused one) from a server',
    params: ServerIdParams,
    body: PruneBody,
  })
  async prune(@Req() req: Request) {
    const input = await this.withServer(req, PruneServerImagesInput);
    return this.commands.execute(new PruneServerImages(input, routeContext(req)));
  }

  @Delete()
  @RouteAccess({
    auth: 'guarded',
    name: 'DELETE /api/v1/servers/:id/images',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    lane: 'command',
    summary: 'Removes an image (?reference= a reference or an image ID) from a server',
    params: ServerIdParams,
    query: ImageReferenceBody,
  })
  async remove(@Req() req: Request) {
    const serverId = await this.serverId(req);
    const input = (await validateInput(ServerImageInput, {
      ...req.query,
      serverId,
    })) as ServerImageInput;
    return this.commands.execute(new RemoveServerImage(input, routeContext(req)));
  }

  @Put()
  @RouteAccess({
    auth: 'guarded',
    name: 'PUT /api/v1/servers/:id/images',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    lane: 'command',
    summary: 'Streams a docker save tarball to the server and docker loads it there (capped)',
    params: ServerIdParams,
  })
  async load(@Req() req: Request) {
    try {
      const serverId = await this.serverId(req);
      requireContentType(req, TAR_TYPES);
      return await this.images.load(serverId, req, declaredLength(req), routeContext(req));
    } catch (error) {
      drain(req);
      throw error;
    }
  }

  /** The body's fields with the path's server id; the body itself names no server. */
  private async withServer<T extends object>(req: Request, type: new () => T): Promise<T> {
    const serverId = await this.serverId(req);
    const body: unknown = req.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body) || body === null)
      throw badRequest('The body must be a JSON object');
    if ('serverId' in body)
      throw badRequest('The server is named by the path', [
        { path: 'serverId', message: 'not in the body' },
      ]);
    return (await validateInput(type, { ...body, serverId })) as T;
  }
}
