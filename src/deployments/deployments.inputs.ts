import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsString,
  IsUUID,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Omittable } from '../common/omittable.js';

const SLUG = /^[a-z0-9][a-z0-9._-]{0,79}$/;
const HOST =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^(?:\d{1,3}\.){3}\d{1,3}$|^\[?[0-9a-fA-F:]{2,39}\]?$/;
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;
const MIB = 1024 * 1024;

export class RegisterServerInput {
  @Matches(SLUG, { message: 'name is 1-80 lower-case letters, digits, . _ -' })
  name!: string;

  @Matches(HOST, { message: 'host must be a hostname or an IP address' })
  host!: string;

  @Omittable()
  @IsInt()
  @Min(1)
  @Max(65535)
  sshPort?: number;

  @Matches(/^[a-z_][a-z0-9_-]{0,31}$/, { message: 'sshUser must be a POSIX user name' })
  sshUser!: string;

  /** PEM private key; stored sealed, never returned. */
  @IsString()
  @Matches(/^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/, {
    message: 'privateKey must be a PEM private key',
  })
  @MaxLength(16_384)
  privateKey!: string;

  @Matches(FINGERPRINT, {
    message: 'hostKeyFingerprint must look like SHA256:<43 base64 characters>',
  })
  hostKeyFingerprint!: string;

  @Omittable()
  @IsArray()
  @ArrayMaxSize(32)
  @Matches(/^[a-z0-9][a-z0-9._-]{0,62}=[^\s=]{0,128}$/, {
    each: true,
    message: 'labels are key=value',
  })
  labels?: string[];
}

export class ApproveServerHostKeyInput {
  @IsUUID()
  serverId!: string;

  @Matches(FINGERPRINT, { message: 'fingerprint must look like SHA256:<43 base64 characters>' })
  fingerprint!: string;
}

export class EnvVarInput {
  @Matches(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, { message: 'env var names are letters, digits and _' })
  name!: string;

  @IsString()
  @MaxLength(4096)
  value!: string;

  @Omittable()
  @IsBoolean()
  secret?: boolean;
}

export class ServiceFieldsInput {
  @Omittable()
  @IsUUID()
  serverId?: string;

  @Omittable()
  @Matches(/^[a-z0-9.:-]+(\/[a-z0-9._-]+)+$|^[a-z0-9._-]+$/, {
    message: 'imageRepository is registry/repo without tag',
  })
  @MaxLength(255)
  imageRepository?: string;

  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(MIB)
  compose?: string;

  @Omittable()
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => EnvVarInput)
  env?: EnvVarInput[];

  @Omittable()
  @IsIn(['none', 'agents', 'all-but-admins'])
  approvalRule?: 'none' | 'agents' | 'all-but-admins';

  @Omittable()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(2048)
  healthCheckUrl?: string;

  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  backupCommand?: string;
}

export class RegisterServiceInput extends ServiceFieldsInput {
  @Matches(SLUG, { message: 'name is 1-80 lower-case letters, digits, . _ -' })
  name!: string;

  @Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
    message: 'environment is 1-40 lower-case letters, digits, -',
  })
  environment!: string;

  @IsUUID()
  declare serverId: string;

  @IsString()
  declare imageRepository: string;

  @IsString()
  declare compose: string;
}

export class UpdateServiceInput extends ServiceFieldsInput {
  @IsUUID()
  serviceId!: string;
}

const REASON = { min: 12, max: 280 };

export class TriggerDeployInput {
  @IsUUID()
  serviceId!: string;

  /** Image reference with a tag or digest, e.g. ghcr.io/acme/api:1.4.2. */
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  imageTag!: string;

  /** Used when the service's approval rule turns the trigger into an approval request. */
  @Omittable()
  @IsString()
  @MinLength(REASON.min)
  @MaxLength(REASON.max)
  reason?: string;
}

export class DeploymentIdInput {
  @IsUUID()
  deploymentId!: string;
}

export class CancelDeploymentInput extends DeploymentIdInput {
  @Omittable()
  @IsString()
  @MaxLength(280)
  reason?: string;
}

export class ExecuteRollbackInput {
  @IsUUID()
  serviceId!: string;

  @IsUUID()
  targetDeploymentId!: string;

  @Omittable()
  @IsString()
  @MinLength(REASON.min)
  @MaxLength(REASON.max)
  reason?: string;
}

export class RequestApprovalInput {
  @IsIn(['deploy', 'rollback', 'restore'])
  action!: 'deploy' | 'rollback' | 'restore';

  @IsUUID()
  serviceId!: string;

  @Omittable()
  @IsString()
  @MaxLength(512)
  imageTag?: string;

  @Omittable()
  @IsUUID()
  targetDeploymentId?: string;

  @Omittable()
  @IsUUID()
  backupId?: string;

  @IsString()
  @MinLength(REASON.min)
  @MaxLength(REASON.max)
  reason!: string;
}

export class DecideApprovalInput {
  @IsUUID()
  approvalId!: string;

  @Omittable()
  @IsString()
  @MaxLength(280)
  note?: string;
}

export class RecordBackupInput {
  @IsUUID()
  serviceId!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  location!: string;

  @Matches(/^sha256:[a-f0-9]{64}$/, { message: 'checksum is sha256:<64 hex>' })
  checksum!: string;

  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  sizeBytes!: number;

  @Omittable()
  @IsISO8601()
  takenAt?: string;
}

export class RecentDeploymentsInput {
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @Omittable()
  @IsIn(['queued', 'running', 'succeeded', 'failed', 'cancelled'])
  status?: string;

  @Omittable()
  @IsUUID()
  serviceId?: string;

  @Omittable()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}

export class DeploymentLogsInput extends DeploymentIdInput {
  @Omittable()
  @IsInt()
  @Min(0)
  afterLine?: number;

  @Omittable()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

export class ApprovalQueueInput {
  @Omittable()
  @IsIn(['pending', 'approved', 'rejected', 'expired'])
  status?: string;

  @Omittable()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

export class DeploymentPlanInput {
  @IsUUID()
  serviceId!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(512)
  imageTag!: string;
}

export class ComposeDeploymentPlanInput {
  @IsUUID()
  serverId!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(MIB)
  compose!: string;
}

export class RollbackPlanInput {
  @IsUUID()
  serviceId!: string;

  @Omittable()
  @IsUUID()
  targetDeploymentId?: string;
}

export class BackupRestorePlanInput {
  @IsUUID()
  backupId!: string;
}

export class ConfigDiffInput {
  @IsUUID()
  fromDeploymentId!: string;

  @IsUUID()
  toDeploymentId!: string;
}
