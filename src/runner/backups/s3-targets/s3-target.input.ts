import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { DisplayName } from '../../../common/field-rules.js';
import { Omittable } from '../../../common/omittable.js';

export const S3TargetId = () =>
  Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
    message: ({ property }) => `${property} is 1-40 lower-case letters, digits and -`,
  });

export class ConfigureS3TargetInput {
  @S3TargetId()
  targetId!: string;

  @DisplayName()
  displayName!: string;

  /** The S3 API's URL (https; http only on loopback), for S3-compatible storage; left out: AWS. */
  @Omittable()
  @IsString()
  @MaxLength(2048)
  endpoint?: string;

  @Matches(/^[a-z0-9-]{1,64}$/, { message: 'region is letters, digits and -' })
  region!: string;

  /** The bucket (it must exist). */
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'bucket is an S3 bucket name' })
  bucket!: string;

  /** Put before `<serviceId>/<backupId>.bak` in each key, e.g. `slipway/`; default none. */
  @Omittable()
  @MaxLength(200)
  @Matches(/^([A-Za-z0-9!_.*'()-]+\/)*$/, { message: 'prefix is key segments, each ending in /' })
  prefix?: string;

  @IsString()
  @MinLength(1)
  @MaxLength(128)
  @Matches(/^[\x21-\x7e]+$/, { message: 'accessKeyId is printable characters without spaces' })
  accessKeyId!: string;

  /** Required for a new target; left out, the configured one is kept. Stored sealed. */
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  secretAccessKey?: string;
}

export class S3TargetIdInput {
  @S3TargetId()
  targetId!: string;
}
