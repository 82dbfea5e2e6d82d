import { Module } from '@nestjs/common';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { BackupProcedures, TriggerBackupHandler } from './backup.procedures.js';
import { BackupTaker } from './backup-taker.js';
import { ServerSessions } from './server-sessions.js';
import { DeploymentExecutor } from './deployment-executor.js';
import { DeploymentRunner } from './deployment-runner.js';
import { ObservationProcedures } from './observe/observation.procedures.js';
import { ServerDiagnosis } from './observe/server-diagnostics.js';
import { ServiceObserver } from './observe/service-observer.js';

@Module({
  imports: [DeploymentsModule],
  providers: [
    DeploymentExecutor,
    DeploymentRunner,
    BackupTaker,
    ServerSessions,
    TriggerBackupHandler,
    BackupProcedures,
    ServiceObserver,
    ServerDiagnosis,
    ObservationProcedures,
  ],
  exports: [DeploymentRunner, ServiceObserver, ServerDiagnosis],
})
export class RunnerModule {}
