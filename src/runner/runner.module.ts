import { Module } from '@nestjs/common';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { DeploymentExecutor } from './deployment-executor.js';
import { DeploymentRunner } from './deployment-runner.js';

@Module({
  imports: [DeploymentsModule],
  providers: [DeploymentExecutor, DeploymentRunner],
  exports: [DeploymentRunner],
})
export class RunnerModule {}
