import { PageLimit, PageCursor } from '../common/field-rules.js';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ArrayMaxSize,
  IsArray,
} from 'class-validator';
import { Omittable } from '../common/omittable.js';
import {
  ApprovalRule,
  ComposeText,
  EnvironmentName,
  EnvList,
  HealthCheckUrl,
  Host,
  HostKeyFingerprint,
  ImageReference,
  ImageRepository,
  Note,
  Reason,
  ShellCommand,
  SlugName,
  type APPROVAL_RULES,
} from './deployment-fields.js';

type ApprovalRuleName = (typeof APPROVAL_RULES)[number];

export class RegisterServerInput {
  @SlugName()
  name!: string;

  @Host()
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

  @HostKeyFingerprint()
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

  @HostKeyFingerprint()
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

/**
 * The settings a service may leave out, on registration and update alike. The fields that are
 * required on registration are declared in each class with the same shared decorators (a
 * subclass never redeclares an inherited field: class-validator would then mix the two).
 */
class ServiceSettingsInput {
  @Omittable()
  @EnvList(() => EnvVarInput)
  env?: EnvVarInput[];

  @Omittable()
  @ApprovalRule()
  approvalRule?: ApprovalRuleName;

  @Omittable()
  @HealthCheckUrl()
  healthCheckUrl?: string;

  @Omittable()
  @ShellCommand()
  backupCommand?: string;
}

export class RegisterServiceInput extends ServiceSettingsInput {
  @SlugName()
  name!: string;

  @EnvironmentName()
  environment!: string;

  @IsUUID()
  serverId!: string;

  @ImageRepository()
  imageRepository!: string;

  @ComposeText()
  compose!: string;
}

export class UpdateServiceInput extends ServiceSettingsInput {
  @IsUUID()
  serviceId!: string;

  @Omittable()
  @IsUUID()
  serverId?: string;

  @Omittable()
  @ImageRepository()
  imageRepository?: string;

  @Omittable()
  @ComposeText()
  compose?: string;
}

export class TriggerDeployInput {
  @IsUUID()
  serviceId!: string;

  /** Image reference with a tag or digest, e.g. ghcr.io/acme/api:1.4.2. */
  @ImageReference()
  imageTag!: string;

  /** Used when the service's approval rule turns the trigger into an approval request. */
  @Omittable()
  @Reason()
  reason?: string;
}

export class DeploymentIdInput {
  @IsUUID()
  deploymentId!: string;
}

export class CancelDeploymentInput extends DeploymentIdInput {
  @Omittable()
  @Note()
  reason?: string;
}

export class ExecuteRollbackInput {
  @IsUUID()
  serviceId!: string;

  @IsUUID()
  targetDeploymentId!: string;

  @Omittable()
  @Reason()
  reason?: string;
}

export class RequestApprovalInput {
  @IsIn(['deploy', 'rollback', 'restore'])
  action!: 'deploy' | 'rollback' | 'restore';

  @IsUUID()
  serviceId!: string;

  @Omittable()
  @ImageReference()
  imageTag?: string;

  @Omittable()
  @IsUUID()
  targetDeploymentId?: string;

  @Omittable()
  @IsUUID()
  backupId?: string;

  @Reason()
  reason!: string;
}

export class DecideApprovalInput {
  @IsUUID()
  approvalId!: string;

  @Omittable()
  @Note()
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
  @PageLimit(100)
  limit?: number;

  @Omittable()
  @IsIn(['queued', 'running', 'succeeded', 'failed', 'cancelled'])
  status?: string;

  @Omittable()
  @IsUUID()
  serviceId?: string;

  @PageCursor()
  cursor?: string;
}

export class DeploymentLogsInput extends DeploymentIdInput {
  @Omittable()
  @IsInt()
  @Min(0)
  afterLine?: number;

  @PageLimit(1000)
  limit?: number;
}

export class ApprovalQueueInput {
  @Omittable()
  @IsIn(['pending', 'approved', 'rejected', 'expired'])
  status?: string;

  @PageLimit(100)
  limit?: number;
}

export class DeploymentPlanInput {
  @IsUUID()
  serviceId!: string;

  @ImageReference()
  imageTag!: string;
}

export class ComposeDeploymentPlanInput {
  @IsUUID()
  serverId!: string;

  @ComposeText()
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
