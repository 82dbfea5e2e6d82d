import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AppError, attributed, badRequest, notFound } from '../../common/app-error.js';
import {
  GitPushDeliveryClaimed,
  gitPushDeliveryStream,
  serviceGitStream,
  type GitSourceData,
} from '../../events/git-sources.events.js';
import { Throttle, type Limit } from '../../identity/login/throttle.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { EventWriter } from '../../storage/event-writer.js';
import { claimDelivery } from '../hooks/delivery-claim.js';
import type { HeaderReader } from '../hooks/hook-signature.js';
import { DeployServiceCommit, type CommitDeploymentAnswer } from './deploy-service-commit.js';
import { deliveryPayload } from '../delivery-payload.js';
import { verifyGitDelivery, type VerifiedGitDelivery } from './git-push-delivery.js';
import { pullRequestEventOf, pullRequestRef, readGitPullRequest } from './git-pull-request.js';
import { PullRequestIntake, type PullRequestAnswer } from './previews/pull-request-intake.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { pushDecision, pushEventOf, readGitPush, repositoryKey, type GitPush } from './git-push.js';
import { gitRefDecider, gitRefStreamOf, pushTaken } from './git-ref.decider.js';
import { gitSourceDecider } from './git-source.decider.js';
import { sourceWebhookContext } from './source-webhook-context.js';

export interface GitPushDelivery {
  serviceId: string;
  header: HeaderReader;
  contentType: string | undefined;
  rawBody: Buffer;
}

export type GitPushAnswer =
  | { status: 'pong'; serviceId: string }
  | { status: 'ignored'; serviceId: string; deliveryId: string; reason: string }
  | PullRequestAnswer
  | (CommitDeploymentAnswer & { serviceId: string; ref: string });

/**
 * Verified deliveries a service's webhook takes per minute (each may claim, record and deploy).
 * Refused ones are counted apart (GIT_PUSH_REFUSED_LIMIT), so a stranger who knows the service's
 * id cannot use up the provider's budget.
 */
export const GIT_PUSH_LIMIT: Limit = { max: 60, windowMs: 60_000 };
/** Unsigned or forged deliveries a service's webhook answers per minute (each is audited). */
export const GIT_PUSH_REFUSED_LIMIT: Limit = { max: 60, windowMs: 60_000 };

const REFUSAL_CODE = { unsigned: 'AUTH_REQUIRED', forged: 'TOKEN_INVALID' } as const;

const IGNORED = {
  deleted: 'the ref was deleted',
  'another-repository': 'the delivery is for another repository than the service follows',
  'no-rule': 'no rule of the source matches the ref',
  'rule-ignores': 'the matching rule ignores the ref',
  'moved-past': 'the ref has already moved past this commit',
} as const;

/**
 * A push delivery for a service's git source: the provider's credential first (see
 * git-push-delivery.ts; a MAC over a body already size-limited), then the rate limit of verified
 * deliveries, or of refused ones apart, then what the push means for the source's rules
 * (git-push.ts), then for the ref's history (git-ref.decider.ts: a late delivery of a push the
 * ref has moved past deploys nothing). A push that deploys claims its body's digest once
 * (`no_stream`), so a replay or a provider's redelivery of it is `409 replayed`, whatever
 * delivery id comes with it; then `deployServiceCommit` runs as the source's webhook: a principal
 * of kind `agent`, role `operator`, auth method `hook`, whose id is the service's. Refusals are
 * attributed to the service and audited like every refused call.
 */
@Injectable()
export class ReceiveGitPushHandler {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly writer: EventWriter,
    private readonly commands: CommandBus,
    private readonly throttle: Throttle,
    private readonly facts: StreamFacts,
    private readonly previews: PullRequestIntake,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async execute(delivery: GitPushDelivery, anonymous: RequestContext): Promise<GitPushAnswer> {
    const { serviceId } = delivery;
    const { source } = await this.runner.load(serviceGitStream(serviceId), gitSourceDecider);
    if (!source?.webhookSecretCiphertext)
      throw notFound('No git source with a push webhook for this service');
    const verified = verifyGitDelivery(
      delivery.header,
      delivery.rawBody,
      this.box.open(source.webhookSecretCiphertext),
    );
    if ('refused' in verified) {
      this.throttle.take(`git-push-refused:${serviceId}`, GIT_PUSH_REFUSED_LIMIT);
      throw attributed(
        new AppError(REFUSAL_CODE[verified.refused], verified.message, {
          reason: verified.refused,
        }),
        serviceId,
      );
    }
    this.throttle.take(`git-push:${serviceId}`, GIT_PUSH_LIMIT);
    const { provider, deliveryId, event } = verified;
    if (event === 'ping' || (provider === 'gitlab' && event === 'System Hook'))
      return { status: 'pong', serviceId };
    if (pullRequestEventOf(provider, event ?? undefined))
      return this.pullRequest(delivery, verified, source, anonymous);
    if (!pushEventOf(provider, event ?? undefined)) {
      return { status: 'ignored', serviceId, deliveryId, reason: `not a push (${event ?? '?'})` };
    }
    const push = readGitPush(provider, deliveryPayload(delivery.contentType, delivery.rawBody));
    if (!push) throw badRequest('The delivery is not a push this provider sends (ref, after)');
    const decision = pushDecision(source, push);
    if ('ignored' in decision)
      return { status: 'ignored', serviceId, deliveryId, reason: IGNORED[decision.ignored] };
    const ctx: RequestContext = {
      ...sourceWebhookContext(
        anonymous,
        serviceId,
        `git push${push.pusher ? ` by ${push.pusher}` : ''} (${provider})`,
      ),
      idempotencyKey: `git-push:${serviceId}:${verified.digest}`,
    };
    if (!(await this.takeRef(source, push, deliveryId, ctx)))
      return { status: 'ignored', serviceId, deliveryId, reason: IGNORED['moved-past'] };
    await this.claim(serviceId, verified.digest, deliveryId, push, ctx);
    const answer = await this.commands.execute(
      new DeployServiceCommit(
        {
          serviceId,
          commit: decision.commit,
          ref: push.ref,
          reason: reasonOf(push, decision.refName),
        },
        ctx,
        {
          author: push.author,
          message: push.message,
          approval: decision.deploy === 'after-approval',
        },
      ),
    );
    return { ...answer, serviceId, ref: push.ref };
  }

  /**
   * A pull request delivery (see PullRequestIntake), claimed once as pushes are: a replayed
   * `synchronize` would otherwise move a preview back to an older commit.
   */
  private async pullRequest(
    delivery: GitPushDelivery,
    verified: VerifiedGitDelivery,
    source: GitSourceData,
    anonymous: RequestContext,
  ): Promise<GitPushAnswer> {
    const { serviceId } = delivery;
    const { provider, deliveryId } = verified;
    const pr = readGitPullRequest(
      provider,
      deliveryPayload(delivery.contentType, delivery.rawBody),
    );
    if (!pr) {
      return {
        status: 'ignored',
        serviceId,
        deliveryId,
        reason: 'no preview moves on this action',
      };
    }
    const service = await this.facts.service(serviceId);
    // What would be ignored or refused claims nothing: sent again once it can be taken (the
    // source previews, a preview closed under the limit), the same delivery is taken.
    const ignored = await this.previews.precheck(service.id, source, pr);
    if (ignored) return { status: 'ignored', serviceId, deliveryId, reason: ignored };
    const by = pr.author ? ` by ${pr.author}` : '';
    const ctx = sourceWebhookContext(
      anonymous,
      serviceId,
      `pull request #${pr.number}${by} (${provider})`,
    );
    await this.claim(
      serviceId,
      verified.digest,
      deliveryId,
      {
        provider,
        ref: pullRequestRef(provider, pr.number),
        commit: pr.headCommit,
      },
      ctx,
    );
    return this.previews.receive(service, source, pr, deliveryId, ctx);
  }

  /**
   * Decides the push on its ref's stream (never from a read model, so two deliveries at once are
   * decided one after the other): false when the ref has moved past its commit. Before the claim,
   * so a push not taken claims nothing.
   */
  private async takeRef(
    source: GitSourceData,
    push: GitPush,
    deliveryId: string,
    ctx: RequestContext,
  ): Promise<boolean> {
    const { serviceId, repository } = source;
    const accepted = {
      serviceId,
      repository,
      ref: push.ref,
      before: push.before,
      after: push.commit,
      deliveryId,
      provider: push.provider,
    };
    const stream = gitRefStreamOf(serviceId, repositoryKey(repository) ?? repository, push.ref);
    const { state } = await this.runner.run(
      stream,
      gitRefDecider,
      { kind: 'accept', push: accepted },
      ctx,
    );
    return pushTaken(state, accepted);
  }

  /** Claims the delivery's body for this service, or refuses it as a replay. */
  private claim(
    serviceId: string,
    digest: string,
    deliveryId: string,
    push: Pick<GitPush, 'provider' | 'ref' | 'commit'>,
    ctx: RequestContext,
  ): Promise<void> {
    return claimDelivery(
      this.writer,
      {
        stream: gitPushDeliveryStream(serviceId, digest),
        event: GitPushDeliveryClaimed({
          serviceId,
          digest,
          deliveryId,
          provider: push.provider,
          ref: push.ref,
          commit: push.commit,
        }),
        deliveryId,
        attributedTo: serviceId,
      },
      ctx,
    );
  }
}

function reasonOf(push: GitPush, refName: string): string {
  const what = push.message ? `: ${push.message}` : '';
  return `Push of ${push.commit.slice(0, 12)} to ${refName}${what}`.slice(0, 280);
}
