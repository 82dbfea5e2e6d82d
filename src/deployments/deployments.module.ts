import { Module } from '@nestjs/common';
import { ApprovalRequests } from './approval-requests.js';
import { ComposeIntakeHandler } from './commands/compose-intake.js';
import { Uploads } from './uploads/uploads.js';
import { ApproveRequestHandler } from './commands/approve-request.js';
import { RejectRequestHandler } from './commands/reject-request.js';
import { RequestApprovalHandler } from './commands/request-approval.js';
import { RecordBackupHandler } from './commands/record-backup.js';
import { CancelDeploymentHandler } from './commands/cancel-deployment.js';
import { ExecuteRollbackHandler } from './commands/execute-rollback.js';
import { TriggerDeployHandler } from './commands/trigger-deploy.js';
import { ApproveServerHostKeyHandler } from './commands/approve-server-host-key.js';
import { RegisterServerHandler } from './commands/register-server.js';
import { CheckServerHandler } from './commands/check-server.js';
import { ScanServerHostKeyHandler } from './commands/scan-server-host-key.js';
import { ServerChecks } from './commands/server-connection.js';
import { RegisterServiceHandler } from './commands/register-service.js';
import { UpdateServiceHandler } from './commands/update-service.js';
import { ServiceSettingsChecks } from './commands/service-settings.checks.js';
import { DeploymentLauncher } from './deployment-launcher.js';
import { DeploymentStateMachine } from './deployment-state-machine.js';
import { DeploymentLogStore } from './deployment-log-store.js';
import { DeploymentLogFeed } from './log-stream/deployment-log-feed.js';
import { DeploymentLogFollower } from './log-stream/deployment-log-follower.js';
import { DeploymentLookup } from './deployment-lookup.js';
import { StreamFacts } from './facts/stream-facts.js';
import { DeploymentQueryProcedures } from './deployments-query.procedures.js';
import { SetServerComposePolicyHandler } from './compose-policy/set-server-compose-policy.js';
import { ComposePolicyGuard } from './compose-policy/compose-policy.guard.js';
import { PlanHandler } from './planning/plan.query.js';
import { BackupsHandler } from './queries/backup-queries.js';
import { DeliveryMetricsHandler } from './queries/delivery-metrics.query.js';
import { AddressGate } from './reach/address-gate.js';
import { ServerReach } from './reach/server-reach.js';
import { ServerStreams } from './server-streams.js';
import { ServiceStreams } from './service-streams.js';
import { Planner } from './planning/planner.js';
import {
  DeploymentDetailsHandler,
  DeploymentLogsHandler,
  RecentDeploymentsHandler,
} from './queries/deployment-queries.js';
import {
  DecommissionServerHandler,
  UpdateServerHandler,
} from './lifecycle/server-lifecycle.handlers.js';
import { LifecycleProcedures } from './lifecycle/lifecycle.procedures.js';
import { CatalogQueries } from './queries/catalog-queries.js';
import {
  ApprovalQueueHandler,
  InfrastructureInventoryHandler,
} from './queries/inventory-queries.js';

@Module({
  providers: [
    StreamFacts,
    UpdateServerHandler,
    DecommissionServerHandler,
    CatalogQueries,
    LifecycleProcedures,
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
    ApproveRequestHandler,
    RejectRequestHandler,
    RecordBackupHandler,
    RecentDeploymentsHandler,
    DeploymentDetailsHandler,
    DeploymentLogsHandler,
    InfrastructureInventoryHandler,
    ApprovalQueueHandler,
    BackupsHandler,
    DeliveryMetricsHandler,
    PlanHandler,
    DeploymentQueryProcedures,
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
    ComposePolicyGuard,
    DeploymentLogStore,
    DeploymentLogFollower,
    DeploymentLookup,
    StreamFacts,
    DeploymentStateMachine,
  ],
})
export class DeploymentsModule {}
