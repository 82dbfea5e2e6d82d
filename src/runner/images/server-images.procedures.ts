import { Injectable } from '@nestjs/common';
import { IsBoolean, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import type { RequestContext } from '../../kernel/request-context.js';
import { badRequest } from '../../common/app-error.js';
import { Omittable } from '../../common/omittable.js';
import { LegacyProcedure as Procedure } from '../../kernel/procedure.js';
import { DEPLOYERS, EVERYONE } from '../../kernel/roles.js';
import { parseImageReference, formatImageReference } from '../../deployments/image-reference.js';
import { ServerImages } from './server-images.js';

/** An image ID as docker prints it: 12 to 64 hex digits, `sha256:` optional. */
const IMAGE_ID = /^(sha256:)?[a-f0-9]{12,64}$/;

export class ServerIdInput {
  @IsUUID()
  serverId!: string;
}

export class ServerImageInput extends ServerIdInput {
  /** An image reference with a tag or digest (e.g. registry.example.com/team/app:1.4.2). */
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  @Matches(/^[\x21-\x7e]+$/, { message: 'reference has no spaces or control characters' })
  reference!: string;
}

export class PruneServerImagesInput extends ServerIdInput {
  /** Every image no container uses, not only dangling ones. */
  @Omittable()
  @IsBoolean()
  all?: boolean;
}

/** A reference to pull: a full image reference with a tag or digest, normalised. */
export function pullReference(reference: string): string {
  const ref = parseImageReference(reference);
  if (!ref)
    throw badRequest('reference must be an image reference with a tag or digest', [
      { path: 'reference', message: 'e.g. registry.example.com/team/app:1.4.2' },
    ]);
  return formatImageReference(ref);
}

/** A reference to remove: an image reference with a tag or digest, or an image ID. */
export function removeReference(reference: string): string {
  return IMAGE_ID.test(reference) ? reference : pullReference(reference);
}

@Injectable()
export class ServerImagesProcedures {
  constructor(private readonly images: ServerImages) {}

  @Procedure.read({
    name: 'serverImages',
    roles: EVERYONE,
    scopes: ['server:read'],
    input: ServerIdInput,
    description:
      'The images on a server (`docker image ls` over SSH): repository, tag, ID, digest.',
  })
  serverImages(input: ServerIdInput, ctx: RequestContext) {
    return this.images.list(input.serverId, ctx);
  }

  @Procedure.command({
    name: 'pullServerImage',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    input: ServerImageInput,
    description: 'Pulls an image on a server (`docker pull` over SSH); recorded.',
  })
  pullServerImage(input: ServerImageInput, ctx: RequestContext) {
    return this.images.pull(input.serverId, pullReference(input.reference), ctx);
  }

  @Procedure.command({
    name: 'removeServerImage',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    input: ServerImageInput,
    description: 'Removes an image (reference or ID) from a server (`docker image rm`); recorded.',
  })
  removeServerImage(input: ServerImageInput, ctx: RequestContext) {
    return this.images.remove(input.serverId, removeReference(input.reference), ctx);
  }

  @Procedure.command({
    name: 'pruneServerImages',
    roles: DEPLOYERS,
    scopes: ['server:write'],
    input: PruneServerImagesInput,
    description: 'Removes dangling images (`all`: every unused one) from a server; recorded.',
  })
  pruneServerImages(input: PruneServerImagesInput, ctx: RequestContext) {
    return this.images.prune(input.serverId, input.all ?? false, ctx);
  }
}
