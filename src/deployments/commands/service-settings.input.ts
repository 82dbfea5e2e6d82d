import { IsBoolean, IsString, Matches, MaxLength } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import {
  ApprovalRule,
  EnvList,
  HealthCheckUrl,
  ShellCommand,
  type APPROVAL_RULES,
} from '../deployment-fields.js';
import { RouteInput, RouteList } from '../routes/route.input.js';

type ApprovalRuleName = (typeof APPROVAL_RULES)[number];

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
 * The settings a service may leave out, on registration and update alike (`registerService`,
 * `updateService`). The fields that are required on registration are declared in each class
 * with the same shared decorators (a subclass never redeclares an inherited field:
 * class-validator would then mix the two).
 */
export class ServiceSettingsInput {
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

  /** Runs on the server with a backup artifact on its standard input (`restoreBackup`). */
  @Omittable()
  @ShellCommand()
  restoreCommand?: string;

  /**
   * What the server's edge proxy routes to the service: the whole list (`[]` removes them all).
   * Each domain belongs to one service across the fleet.
   */
  @Omittable()
  @RouteList()
  routes?: RouteInput[];
}
