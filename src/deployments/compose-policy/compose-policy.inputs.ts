import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsUUID } from 'class-validator';
import { COMPOSE_CAPABILITY_NAMES } from './compose-capabilities.js';

export class SetServerComposePolicyInput {
  @IsUUID()
  serverId!: string;

  /** The complete list of allowed capabilities (replaces the previous one; [] refuses all). */
  @IsArray()
  @ArrayMaxSize(COMPOSE_CAPABILITY_NAMES.length)
  @ArrayUnique()
  @IsIn(COMPOSE_CAPABILITY_NAMES, {
    each: true,
    message: `allow lists capabilities among: ${COMPOSE_CAPABILITY_NAMES.join(', ')}`,
  })
  allow!: string[];
}
