import { IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { badRequest } from '../../common/app-error.js';
import { formatImageReference, parseImageReference } from '../../deployments/image-reference.js';

/** An image ID as docker prints it: 12 to 64 hex digits, `sha256:` optional. */
const IMAGE_ID = /^(sha256:)?[a-f0-9]{12,64}$/;

export class ServerIdInput {
  @IsUUID()
  serverId!: string;
}

/** What `pullServerImage` and `removeServerImage` take. */
export class ServerImageInput extends ServerIdInput {
  /** An image reference with a tag or digest (e.g. registry.example.com/team/app:1.4.2). */
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  @Matches(/^[\x21-\x7e]+$/, { message: 'reference has no spaces or control characters' })
  reference!: string;
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
