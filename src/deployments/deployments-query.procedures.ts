import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { Procedure, type ProcedureOptions } from '../kernel/procedure.js';
import {
  BackupRestorePlanInput,
  ComposeDeploymentPlanInput,
  ConfigDiffInput,
  DeploymentPlanInput,
  PlanHandler,
  RollbackPlanInput,
} from './planning/plan.query.js';
import { DeploymentIdInput } from './deployment-id.input.js';
import { BackupsHandler, BackupsInput } from './queries/backup-queries.js';
import {
  DeploymentDetailsHandler,
  DeploymentLogsHandler,
  DeploymentLogsInput,
  RecentDeploymentsHandler,
  RecentDeploymentsInput,
} from './queries/deployment-queries.js';
import {
  ApprovalQueueHandler,
  ApprovalQueueInput,
  InfrastructureInventoryHandler,
} from './queries/inventory-queries.js';
import { DEPLOYERS, EVERYONE } from '../kernel/roles.js';
import type { Scope } from '../kernel/scopes.js';

const read = (
  name: string,
  scope: Scope,
  input: ProcedureOptions['input'],
  description: string,
): ProcedureOptions => ({
  name,
  lane: 'read',
  auth: 'authenticated',
  roles: EVERYONE,
  scopes: [scope],
  input,
  description,
});
const planning = (
  name: string,
  input: ProcedureOptions['input'],
  description: string,
): ProcedureOptions => ({
  name,
  lane: 'planning',
  auth: 'authenticated',
  roles: DEPLOYERS,
  scopes: ['deploy:plan'],
  input,
  description,
});

@Injectable()
export class DeploymentQueryProcedures {
  constructor(
    private readonly approvalQueueHandler: ApprovalQueueHandler,
    private readonly backupsHandler: BackupsHandler,
    private readonly deploymentDetailsHandler: DeploymentDetailsHandler,
    private readonly deploymentLogsHandler: DeploymentLogsHandler,
    private readonly infrastructureInventoryHandler: InfrastructureInventoryHandler,
    private readonly planHandler: PlanHandler,
    private readonly recentDeploymentsHandler: RecentDeploymentsHandler,
  ) {}

  @Procedure(
    read(
      'recentDeployments',
      'deploy:read',
      RecentDeploymentsInput,
      'Deployments, newest first: {limit 1-100 (20), status?, serviceId?, cursor?}.',
    ),
  )
  recentDeployments(input: RecentDeploymentsInput) {
    return this.recentDeploymentsHandler.execute(input);
  }

  @Procedure(
    read(
      'deploymentDetails',
      'deploy:read',
      DeploymentIdInput,
      'One deployment: status, steps, requester, frozen snapshot (secrets masked), queue position.',
    ),
  )
  deploymentDetails(input: DeploymentIdInput, ctx: RequestContext) {
    return this.deploymentDetailsHandler.execute(input.deploymentId, ctx);
  }

  @Procedure(
    read(
      'deploymentLogs',
      'deploy:read',
      DeploymentLogsInput,
      'Output lines the runner recorded, after a line number, in order.',
    ),
  )
  deploymentLogs(input: DeploymentLogsInput) {
    return this.deploymentLogsHandler.execute(input);
  }

  @Procedure(
    read(
      'infrastructureInventory',
      'server:read',
      undefined,
      'Servers and their services, each with its latest deployment and health.',
    ),
  )
  infrastructureInventory() {
    return this.infrastructureInventoryHandler.execute();
  }

  @Procedure(
    read(
      'approvalQueue',
      'approval:read',
      ApprovalQueueInput,
      'Approval requests by status (pending, approved, rejected, expired), oldest first.',
    ),
  )
  approvalQueue(input: ApprovalQueueInput) {
    return this.approvalQueueHandler.execute(input.status, input.limit ?? 50);
  }

  @Procedure(
    read(
      'backups',
      'service:read',
      BackupsInput,
      'Recorded backups, newest first: {serviceId?, limit 1-100 (20), cursor?}.',
    ),
  )
  backups(input: BackupsInput) {
    return this.backupsHandler.execute(input);
  }

  @Procedure(
    planning(
      'deploymentPlan',
      DeploymentPlanInput,
      'Preflight checks and steps for deploying an image to a service; no side effects.',
    ),
  )
  deploymentPlan(input: DeploymentPlanInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'deploy', ...input }, ctx);
  }

  @Procedure(
    planning(
      'composeDeploymentPlan',
      ComposeDeploymentPlanInput,
      'Preflight checks for running a compose definition on a server; no side effects.',
    ),
  )
  composeDeploymentPlan(input: ComposeDeploymentPlanInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'compose', ...input }, ctx);
  }

  @Procedure(
    planning(
      'rollbackPlan',
      RollbackPlanInput,
      'Preflight checks for rolling back (default target: the previous succeeded deployment).',
    ),
  )
  rollbackPlan(input: RollbackPlanInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'rollback', ...input }, ctx);
  }

  @Procedure(
    planning(
      'backupRestorePlan',
      BackupRestorePlanInput,
      'Preflight checks and steps for restoring a recorded backup.',
    ),
  )
  backupRestorePlan(input: BackupRestorePlanInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'restore', ...input }, ctx);
  }

  @Procedure(
    planning(
      'configDiff',
      ConfigDiffInput,
      'Field-by-field difference of two deployments’ frozen snapshots (secret values never shown).',
    ),
  )
  configDiff(input: ConfigDiffInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'diff', ...input }, ctx);
  }
}
