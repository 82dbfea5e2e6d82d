import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../kernel/request-context.js';
import { LegacyProcedure as Procedure } from '../kernel/procedure.js';
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
import { DeliveryMetricsHandler, DeliveryMetricsInput } from './queries/delivery-metrics.query.js';
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

@Injectable()
export class DeploymentQueryProcedures {
  constructor(
    private readonly approvalQueueHandler: ApprovalQueueHandler,
    private readonly backupsHandler: BackupsHandler,
    private readonly deliveryMetricsHandler: DeliveryMetricsHandler,
    private readonly deploymentDetailsHandler: DeploymentDetailsHandler,
    private readonly deploymentLogsHandler: DeploymentLogsHandler,
    private readonly infrastructureInventoryHandler: InfrastructureInventoryHandler,
    private readonly planHandler: PlanHandler,
    private readonly recentDeploymentsHandler: RecentDeploymentsHandler,
  ) {}

  @Procedure.read({
    name: 'recentDeployments',
    roles: EVERYONE,
    scopes: ['deploy:read'],
    input: RecentDeploymentsInput,
    description: 'Deployments, newest first: {limit 1-100 (20), status?, serviceId?, cursor?}.',
  })
  recentDeployments(input: RecentDeploymentsInput) {
    return this.recentDeploymentsHandler.execute(input);
  }

  @Procedure.read({
    name: 'deploymentDetails',
    roles: EVERYONE,
    scopes: ['deploy:read'],
    input: DeploymentIdInput,
    description:
      'One deployment: status, steps, requester, frozen snapshot (secrets masked), queue position.',
  })
  deploymentDetails(input: DeploymentIdInput, ctx: RequestContext) {
    return this.deploymentDetailsHandler.execute(input.deploymentId, ctx);
  }

  @Procedure.read({
    name: 'deploymentLogs',
    roles: EVERYONE,
    scopes: ['deploy:read'],
    input: DeploymentLogsInput,
    description: 'Output lines the runner recorded, after a line number, in order.',
  })
  deploymentLogs(input: DeploymentLogsInput) {
    return this.deploymentLogsHandler.execute(input);
  }

  @Procedure.read({
    name: 'deliveryMetrics',
    roles: EVERYONE,
    scopes: ['deploy:read'],
    input: DeliveryMetricsInput,
    description:
      'Deployment frequency, lead time (request to success), change failure rate and time to restore, per service and environment and overall, over whole UTC days (windowDays 1-90, default 30), with daily counts.',
  })
  deliveryMetrics(input: DeliveryMetricsInput) {
    return this.deliveryMetricsHandler.execute(input);
  }

  @Procedure.read({
    name: 'infrastructureInventory',
    roles: EVERYONE,
    scopes: ['server:read'],
    description: 'Servers and their services, each with its latest deployment and health.',
  })
  infrastructureInventory() {
    return this.infrastructureInventoryHandler.execute();
  }

  @Procedure.read({
    name: 'approvalQueue',
    roles: EVERYONE,
    scopes: ['approval:read'],
    input: ApprovalQueueInput,
    description:
      'Approval requests by status (pending, approved, rejected, expired), oldest first.',
  })
  approvalQueue(input: ApprovalQueueInput) {
    return this.approvalQueueHandler.execute(input.status, input.limit ?? 50);
  }

  @Procedure.read({
    name: 'backups',
    roles: EVERYONE,
    scopes: ['service:read'],
    input: BackupsInput,
    description: 'Recorded backups, newest first: {serviceId?, limit 1-100 (20), cursor?}.',
  })
  backups(input: BackupsInput) {
    return this.backupsHandler.execute(input);
  }

  @Procedure.planning({
    name: 'deploymentPlan',
    roles: DEPLOYERS,
    scopes: ['deploy:plan'],
    input: DeploymentPlanInput,
    description: 'Preflight checks and steps for deploying an image to a service; no side effects.',
  })
  deploymentPlan(input: DeploymentPlanInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'deploy', ...input }, ctx);
  }

  @Procedure.planning({
    name: 'composeDeploymentPlan',
    roles: DEPLOYERS,
    scopes: ['deploy:plan'],
    input: ComposeDeploymentPlanInput,
    description: 'Preflight checks for running a compose definition on a server; no side effects.',
  })
  composeDeploymentPlan(input: ComposeDeploymentPlanInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'compose', ...input }, ctx);
  }

  @Procedure.planning({
    name: 'rollbackPlan',
    roles: DEPLOYERS,
    scopes: ['deploy:plan'],
    input: RollbackPlanInput,
    description:
      'Preflight checks for rolling back (default target: the previous succeeded deployment).',
  })
  rollbackPlan(input: RollbackPlanInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'rollback', ...input }, ctx);
  }

  @Procedure.planning({
    name: 'backupRestorePlan',
    roles: DEPLOYERS,
    scopes: ['deploy:plan'],
    input: BackupRestorePlanInput,
    description: 'Preflight checks and steps for restoring a recorded backup.',
  })
  backupRestorePlan(input: BackupRestorePlanInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'restore', ...input }, ctx);
  }

  @Procedure.planning({
    name: 'configDiff',
    roles: DEPLOYERS,
    scopes: ['deploy:plan'],
    input: ConfigDiffInput,
    description:
      'Field-by-field difference of two deployments’ frozen snapshots (secret values never shown).',
  })
  configDiff(input: ConfigDiffInput, ctx: RequestContext) {
    return this.planHandler.execute({ kind: 'diff', ...input }, ctx);
  }
}
