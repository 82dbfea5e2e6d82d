import { AccessModule } from '../access/access.module.js';
import { ServicesInProjects } from './services-in-projects.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { DomainClaims } from './routes/domain-claims.js';
import { ComposeProjectClaims } from './compose-project-claims.js';
import { Module } from '@nestjs/common';
import { ApprovalRequests } from './approval-requests.js';
import { ApprovalSlots } from './approval-slots.js';
import { ApprovalViews } from './queries/approval-view.js';
import { RollbackLaunches } from './rollback-launch.js';
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
import { DeploymentRequests } from './deployment-requests.js';
import { SetServerComposePolicyHandler } from './compose-policy/set-server-compose-policy.js';
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
import { ServerStreams } from './server-streams.js';
import { ServiceStreams } from './service-streams.js';
import { Planner } from './planning/planner.js';
import { DecommissionServerHandler } from './lifecycle/decommission-server.js';
import { UpdateServerHandler } from './lifecycle/update-server.js';
import { ServerDetailsHandler } from './queries/server-details.js';
import { ServersHandler } from './queries/servers.js';
import { ServiceDetailsHandler } from './queries/service-details.js';
import { ServicesHandler } from './queries/services.js';

import { ServiceRegistrar } from './service-registrar.js';
import { BackupCopiesHandler } from './backup-schedules/backup-copies.js';
import { BackupScheduleHandler } from './backup-schedules/backup-schedule.js';
import { RemoveBackupScheduleHandler } from './backup-schedules/remove-backup-schedule.js';
import { SetBackupScheduleHandler } from './backup-schedules/set-backup-schedule.js';
import { DefineScheduledJobHandler } from './jobs/define-scheduled-job.js';
import { JobRunLogsHandler, JobRunsHandler } from './jobs/job-runs.js';
import { RemoveScheduledJobHandler } from './jobs/remove-scheduled-job.js';
import { ScheduledJobsHandler } from './jobs/scheduled-jobs.js';

@Module({
  imports: [ProjectsModule, AccessModule],
  providers: [
    StreamFacts,
    DeploymentRequests,
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
    ApprovalSlots,
    ApprovalViews,
    RollbackLaunches,
    Planner,
    RegisterServerHandler,
    ApproveServerHostKeyHandler,
    ServerReach,
    ServerChecks,
    ScanServerHostKeyHandler,
    CheckServerHandler,
    ServiceSettingsChecks,
    ComposeProjectClaims,
    DomainClaims,
    ServiceRegistrar,
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
    DeploymentPlanHandler,
    ComposeDeploymentPlanHandler,
    RollbackPlanHandler,
    BackupRestorePlanHandler,
    ConfigDiffHandler,
    Uploads,
    ComposeIntakeHandler,
    ServicesInProjects,
    DefineScheduledJobHandler,
    RemoveScheduledJobHandler,
    ScheduledJobsHandler,
    JobRunsHandler,
    JobRunLogsHandler,
    SetBackupScheduleHandler,
    RemoveBackupScheduleHandler,
    BackupScheduleHandler,
    BackupCopiesHandler,
  ],
  exports: [
    ServicesInProjects,
    TriggerDeployHandler,
    DeploymentRequests,
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
    DomainClaims,
    ServiceRegistrar,
    ServiceSettingsChecks,
  ],
})
export class DeploymentsModule {}
