import { AccessModule } from '../access/access.module.js';
import { Module } from '@nestjs/common';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RestoreBackupHandler } from './backups/restore-backup.js';
import { RestoreTester } from './backups/restore-tester.js';
import { TestBackupRestoreHandler } from './backups/test-backup-restore.js';
import { BackupCopier } from './backups/backup-copier.js';
import { BackupScheduler } from './backups/backup-scheduler.js';
import { CopyBackupHandler } from './backups/copy-backup.js';
import { CopyPlaces } from './backups/copy-places.js';
import { ConfigureS3TargetHandler } from './backups/s3-targets/configure-s3-target.js';
import { RemoveS3TargetHandler } from './backups/s3-targets/remove-s3-target.js';
import { S3TargetNamesHandler, S3TargetsHandler } from './backups/s3-targets/s3-targets.js';
import { VerifyBackupCopiesHandler } from './backups/verify-backup-copies.js';
import { TriggerBackupHandler } from './backups/trigger-backup.js';
import { JobExecutor } from './jobs/job-executor.js';
import { JobScheduler } from './jobs/job-scheduler.js';
import { JobStarter } from './jobs/job-starter.js';
import { RunScheduledJobHandler } from './jobs/run-scheduled-job.js';
import { ServerSessions } from './server-sessions.js';
import { AlertEvaluator } from './metrics/alert-evaluator.js';
import { AlertRulesHandler, AlertsHandler } from './metrics/alert-queries.js';
import { MetricSamples } from './metrics/metric-samples.js';
import { MetricsCollector } from './metrics/metrics-collector.js';
import { ServerMetricsHandler, ServiceMetricsHandler } from './metrics/metrics-queries.js';
import { RemoveAlertRuleHandler } from './metrics/remove-alert-rule.js';
import { ServerMetricsReader } from './metrics/server-metrics-reader.js';
import { SetAlertRuleHandler } from './metrics/set-alert-rule.js';
import { ImageOperations } from './images/image-operations.js';
import { PruneServerImagesHandler } from './images/prune-server-images.js';
import { PullServerImageHandler } from './images/pull-server-image.js';
import { RemoveServerImageHandler } from './images/remove-server-image.js';
import { ServerImagesHandler } from './images/server-images.js';
import { DeploymentExecutor } from './deployment-executor.js';
import { GitBuilds } from './git-builds.js';
import { DeploymentRunner } from './deployment-runner.js';
import { ServerDiagnosis } from './observe/server-diagnostics.js';
import { ServiceObserver } from './observe/service-observer.js';
import { ServiceStatsHandler, ServiceStatusHandler } from './observe/service-observation.js';
import { LogStreamSlots } from './observe/log-stream-slots.js';
import { ArchiveServiceHandler } from './lifecycle/archive-service.js';
import { WakeRunner } from './wake-runner.reaction.js';
import { EdgeCertificates } from './edge/edge-certificates.js';
import { EdgeProxy } from './edge/edge-proxy.js';
import { EdgeCutover } from './edge/edge-cutover.js';
import { EdgeWatch } from './edge/edge-watch.js';
import { PreviewEnvironments } from './previews/preview-environments.js';
import { ImageTransfer } from './image-transfer.js';
import { RepositoryBuilds } from './repository-builds.js';
import { RepositoryCompose } from './repository-compose.js';
import { PreviewSweep } from './previews/preview-sweep.js';
import { ReconcilePreviews } from './previews/reconcile-previews.reaction.js';
import { SyncEdgeOnRoutes } from './edge/sync-edge-on-routes.reaction.js';
import { SyncServerEdgeHandler } from './edge/sync-server-edge.js';

@Module({
  imports: [DeploymentsModule, AccessModule, NotificationsModule],
  providers: [
    DeploymentExecutor,
    GitBuilds,
    DeploymentRunner,
    ServerSessions,
    TriggerBackupHandler,
    BackupScheduler,
    BackupCopier,
    CopyBackupHandler,
    CopyPlaces,
    ConfigureS3TargetHandler,
    RemoveS3TargetHandler,
    S3TargetsHandler,
    S3TargetNamesHandler,
    VerifyBackupCopiesHandler,
    JobExecutor,
    JobStarter,
    JobScheduler,
    RunScheduledJobHandler,
    MetricSamples,
    ServerMetricsReader,
    AlertEvaluator,
    MetricsCollector,
    ServerMetricsHandler,
    ServiceMetricsHandler,
    SetAlertRuleHandler,
    RemoveAlertRuleHandler,
    AlertRulesHandler,
    AlertsHandler,
    RestoreBackupHandler,
    RestoreTester,
    TestBackupRestoreHandler,
    ImageOperations,
    ServerImagesHandler,
    PullServerImageHandler,
    RemoveServerImageHandler,
    PruneServerImagesHandler,
    ServiceObserver,
    LogStreamSlots,
    ServerDiagnosis,
    ServiceStatusHandler,
    ServiceStatsHandler,
    ArchiveServiceHandler,
    WakeRunner,
    EdgeProxy,
    EdgeCutover,
    EdgeWatch,
    PreviewEnvironments,
    RepositoryCompose,
    RepositoryBuilds,
    ImageTransfer,
    ReconcilePreviews,
    PreviewSweep,
    EdgeCertificates,
    SyncEdgeOnRoutes,
    SyncServerEdgeHandler,
  ],
  exports: [
    EdgeProxy,
    DeploymentRunner,
    ImageOperations,
    ServiceObserver,
    LogStreamSlots,
    ServerDiagnosis,
  ],
})
export class RunnerModule {}
