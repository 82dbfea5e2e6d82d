import { IsUUID, Matches } from 'class-validator';
import type { ICommandHandler } from '@nestjs/cqrs';
import { conflict } from '../../common/app-error.js';
import { Omittable } from '../../common/omittable.js';
import type { DeploymentGitBuild } from '../../events/deployments.events.js';
import { serviceGitStream } from '../../events/git-sources.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import type { PendingApproval } from '../approval-requests.js';
import { Reason } from '../deployment-fields.js';
import { requestDeploy } from '../commands/deploy-request.js';
import {
  serviceSnapshot,
  validImageRef,
  type QueuedDeploymentAnswer,
} from '../deployment-launcher.js';
import { DeploymentRequests } from '../deployment-requests.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { gitSourceDecider } from './git-source.decider.js';

export class DeployServiceCommitInput {
  @IsUUID()
  serviceId!: string;

  /** The full commit id (SHA-1 or SHA-256), as `git rev-parse` prints it. */
  @Matches(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, {
    message: 'commit is a full commit id: 40 (or 64) lower-case hex digits',
  })
  commit!: string;

  /** The branch or tag it was pushed to, for the record: `refs/heads/<b>` or `refs/tags/<t>`. */
  @Omittable()
  @Matches(/^refs\/(?:heads|tags)\/[A-Za-z0-9._/-]{1,200}$/, {
    message: 'ref is refs/heads/<branch> or refs/tags/<tag>',
  })
  ref?: string;

  @Omittable()
  @Reason()
  reason?: string;
}

export type CommitDeploymentAnswer = (QueuedDeploymentAnswer | PendingApproval) & {
  imageRef: string;
  commit: string;
};

/** What a push delivery adds to a commit it deploys. */
export interface PushedCommit {
  author: string | null;
  message: string | null;
  /** The matching rule's action is `approval`: asked for whatever the service's rule says. */
  approval: boolean;
}

export class DeployServiceCommit extends ProcedureCommand<
  DeployServiceCommitInput,
  CommitDeploymentAnswer
> {
  constructor(
    input: DeployServiceCommitInput,
    ctx: RequestContext,
    readonly pushed?: PushedCommit,
  ) {
    super(input, ctx);
  }
}

/**
 * Builds a commit of the service's git source on its server and deploys the image, tagged by the
 * commit (`<imageRepository>:<commit>`): the ordinary deploy path (approval rule, FIFO queue,
 * idempotency, audit), with the build first. Push deliveries come through here too.
 */
@Procedure.command(DeployServiceCommit, {
  name: 'deployServiceCommit',
  roles: DEPLOYERS,
  scopes: ['deploy:start'],
  input: DeployServiceCommitInput,
  description:
    'Builds a commit of the service’s git repository on its server and deploys it (`{serviceId, commit, ref?, reason?}`): queued, or an approval request when the service’s rule requires one. Honours Idempotency-Key.',
  project: { service: 'serviceId' },
})
export class DeployServiceCommitHandler implements ICommandHandler<DeployServiceCommit> {
  constructor(
    private readonly facts: StreamFacts,
    private readonly runner: DeciderRunner,
    private readonly requests: DeploymentRequests,
  ) {}

  async execute({ input, ctx, pushed }: DeployServiceCommit): Promise<CommitDeploymentAnswer> {
    const service = await this.facts.service(input.serviceId);
    const { source } = await this.runner.load(serviceGitStream(service.id), gitSourceDecider);
    if (!source)
      throw conflict(`${service.name} follows no git repository: set one with setServiceGitSource`);
    const imageRef = validImageRef(`${service.imageRepository}:${input.commit}`);
    const git: DeploymentGitBuild = {
      repository: source.repository,
      commit: input.commit,
      ref: input.ref ?? null,
      author: pushed?.author ?? null,
      message: pushed?.message ?? null,
      contextPath: source.contextPath,
      dockerfile: source.dockerfile,
      composeFile: source.composeFile ?? null,
      buildServerId: source.buildServerId ?? null,
      pushImage: source.pushImage === true,
    };
    const snapshot = { ...serviceSnapshot(service, imageRef), git };
    const short = input.commit.slice(0, 12);
    const answer = await requestDeploy(
      this.requests,
      { service, imageRef, snapshot },
      {
        payload: { serviceId: service.id, imageRef, snapshot },
        reason:
          input.reason ??
          `Build and deploy ${short}${git.ref ? ` (${git.ref})` : ''} to ${service.name} (${service.environment})`,
        required: pushed?.approval === true,
      },
      ctx,
    );
    return { ...answer, imageRef, commit: input.commit };
  }
}
