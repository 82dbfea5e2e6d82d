import { Module } from '@nestjs/common';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { BackupProcedures, TriggerBackupHandler } from './backup.procedures.js';
import { BackupTaker } from './backup-taker.js';
import { ServerSessions } from './server-sessions.js';
import { ServerImages } from './images/server-images.js';
import { ServerImagesProcedures } from './images/server-images.procedures.js';
import { DeploymentExecutor } from './deployment-executor.js';
import { DeploymentRunner } from './deployment-runner.js';
import { ObservationProcedures } from './observe/observation.procedures.js';
import { ServerDiagnosis } from './observe/server-diagnostics.js';
import { ServiceObserver } from './observe/service-observer.js';
import { LogStreamSlots } from './observe/log-stream-slots.js';
import { ArchiveServiceHandler } from './lifecycle/archive-service.handler.js';
import { ArchiveProcedures } from './lifecycle/archive.procedures.js';
import { RestoreRunner } from './restore/restore-runner.js';
import { WakeRunner } from './wake-runner.reaction.js';

@Module({
  imports: [DeploymentsModule],
  providers: [
    DeploymentExecutor,
    DeploymentRunner,
    BackupTaker,
    ServerSessions,
    TriggerBackupHandler,
    BackupProcedures,
    ServerImages,
    ServerImagesProcedures,
    ServiceObserver,
    LogStreamSlots,
    ServerDiagnosis,
    ObservationProcedures,
    ArchiveServiceHandler,
    ArchiveProcedures,
    RestoreRunner,
    WakeRunner,
  ],
  exports: [
    DeploymentRunner,
    ServerImages,
    ServerImagesProcedures,
    ServiceObserver,
    LogStreamSlots,
    ServerDiagnosis,
  ],
})
export class RunnerModule {}
