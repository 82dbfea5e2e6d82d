import { Module } from '@nestjs/common';
import { ApprovalRequests } from './approval-requests.js';
import { ComposeIntakeHandler } from './commands/compose-intake.js';
import { Uploads } from './uploads/uploads.js';
import { DecideApprovalHandler, RequestApprovalHandler } from './commands/approvals.handlers.js';
import { RecordBackupHandler } from './commands/backups.handlers.js';
import { CancelDeploymentHandler, ExecuteRollbackHandler } from './commands/deploy.handlers.js';
import { TriggerDeployHandler } from './commands/trigger-deploy.js';
import { ApproveServerHostKeyHandler, RegisterServerHandler } from './commands/servers.handlers.js';
import {
  CheckServerHandler,
  ScanServerHostKeyHandler,
  ServerChecks,
} from './commands/server-connection.js';
import { RegisterServiceHandler, UpdateServiceHandler } from './commands/services.handlers.js';
import { ServiceSettingsChecks } from './commands/service-settings.checks.js';
import { DeploymentLauncher } from './deployment-launcher.js';
import { DeploymentStateMachine } from './deployment-state-machine.js';
import { DeploymentLogStore } from './deployment-log-store.js';
import { DeploymentLogFeed } from './log-stream/deployment-log-feed.js';
import { DeploymentLogFollower } from './log-stream/deployment-log-follower.js';
import { DeploymentLookup } from './deployment-lookup.js';
import { DeploymentCommandProcedures } from './deployments-command.procedures.js';
import { SetServerComposePolicyHandler } from './compose-policy/compose-policy.handler.js';
import { ComposePolicyGuard } from './compose-policy/compose-policy.guard.js';
import { BackupRestorePlanHandler } from './planning/backup-restore-plan.js';
import { ComposeDeploymentPlanHandler } from './planning/compose-deployment-plan.js';
import { ConfigDiffHandler } from './planning/config-diff.js';
import { DeploymentPlanHandler } from './planning/deployment-plan.js';
import { RollbackPlanHandler } from './planning/rollback-plan.js';
import { ApprovalQueueHandler } from './queries/approval-queue.js';
import { BackupsHandler } from './queries/backups.js';
import { DeliveryMetricsHandler } from './queries/delivery-metrics.js';
import { DeploymentDetailsHandler } from './queries/deployment-details.js';
import { DeploymentLogsHandler } from './queries/deployment-logs.js';
import { InfrastructureInventoryHandler } from './queries/infrastructure-inventory.js';
import { RecentDeploymentsHandler } from './queries/recent-deployments.js';
import { AddressGate } from './reach/address-gate.js';
import { ServerReach } from './reach/server-reach.js';
import { ServerConnectionProcedures } from './server-connection.procedures.js';
import { ServerStreams } from './server-streams.js';
import { ServiceStreams } from './service-streams.js';
import { Planner } from './planning/planner.js';
import { DecommissionServerHandler } from './lifecycle/decommission-server.js';
import { UpdateServerHandler } from './lifecycle/update-server.js';
import { ServerDetailsHandler } from './queries/server-details.js';
import { ServersHandler } from './queries/servers.js';
import { ServiceDetailsHandler } from './queries/service-details.js';
import { ServicesHandler } from './queries/services.js';

@Module({
  providers: [
    UpdateServerHandler,
    DecommissionServerHandler,
    ServicesHandler,
    ServiceDetailsHandler,
    ServersHandler,
    ServerDetailsHandler,
    AddressGate,
    ComposePolicyGuard,
    SetServerComposePolicyHandler,
    DeploymentLookup,
    ServerStreams,
    ServiceStreams,
    DeploymentLauncher,
    DeploymentStateMachine,
    DeploymentLogStore,
    DeploymentLogFeed,
    DeploymentLogFollower,
    ApprovalRequests,
    Planner,
    RegisterServerHandler,
    ApproveServerHostKeyHandler,
    ServerReach,
    ServerChecks,
    ScanServerHostKeyHandler,
    CheckServerHandler,
    ServiceSettingsChecks,
    RegisterServiceHandler,
    UpdateServiceHandler,
    TriggerDeployHandler,
    ExecuteRollbackHandler,
    CancelDeploymentHandler,
    RequestApprovalHandler,
    DecideApprovalHandler,
    RecordBackupHandler,
    RecentDeploymentsHandler,
    DeploymentDetailsHandler,
    DeploymentLogsHandler,
    InfrastructureInventoryHandler,
    ApprovalQueueHandler,
    BackupsHandler,
    DeliveryMetricsHandler,
    DeploymentPlanHandler,
    ComposeDeploymentPlanHandler,
    RollbackPlanHandler,
    BackupRestorePlanHandler,
    ConfigDiffHandler,
    DeploymentCommandProcedures,
    ServerConnectionProcedures,
    Uploads,
    ComposeIntakeHandler,
  ],
  exports: [
    TriggerDeployHandler,
    Uploads,
    ComposeIntakeHandler,
    ServiceStreams,
    ServerStreams,
    AddressGate,
    CheckServerHandler,
    ComposePolicyGuard,
    DeploymentLogStore,
    DeploymentLogFollower,
    DeploymentLookup,
    DeploymentStateMachine,
  ],
})
export class DeploymentsModule {}
