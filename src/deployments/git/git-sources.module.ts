import { AccessModule } from '../../access/access.module.js';
import { Module } from '@nestjs/common';
import { Throttle } from '../../identity/login/throttle.js';
import { DeploymentsModule } from '../deployments.module.js';
import { DeployServiceCommitHandler } from './deploy-service-commit.js';
import { ApproveServicePreviewHandler } from './previews/approve-service-preview.js';
import { CloseServicePreviewHandler } from './previews/close-service-preview.js';
import { ServicePreviewsHandler } from './previews/service-previews.js';
import { PullRequestIntake } from './previews/pull-request-intake.js';
import { ReceiveGitPushHandler } from './receive-git-push.handler.js';
import { RemoveServiceGitSourceHandler } from './remove-service-git-source.js';
import { SetServiceGitSourceHandler } from './set-service-git-source.js';

/** Git sources: their procedures, commit deployments and the push deliveries the route takes. */
@Module({
  imports: [DeploymentsModule, AccessModule],
  providers: [
    // Its own counters: push deliveries are limited per service, apart from logins.
    Throttle,
    SetServiceGitSourceHandler,
    RemoveServiceGitSourceHandler,
    DeployServiceCommitHandler,
    ReceiveGitPushHandler,
    PullRequestIntake,
    ServicePreviewsHandler,
    ApproveServicePreviewHandler,
    CloseServicePreviewHandler,
  ],
  exports: [ReceiveGitPushHandler],
})
export class GitSourcesModule {}
