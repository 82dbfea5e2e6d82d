import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AppError, attributed, notFound } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import {
  DeployHookDeliveryClaimed,
  deployHookDeliveryStream,
  deployHookStream,
} from '../../events/notifications.events.js';
import { actingAs, type RequestContext } from '../../kernel/request-context.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { EventWriter } from '../../storage/event-writer.js';
import type { PendingApproval } from '../approval-requests.js';
import { TriggerDeploy } from '../commands/trigger-deploy.js';
import type { QueuedDeploymentAnswer } from '../deployment-launcher.js';
import { claimDelivery } from './delivery-claim.js';
import { deployHookDecider } from './deploy-hook.decider.js';
import { DeployHooks } from './deploy-hooks.js';
import { announcedBy, deletesRef, imageOf, ruleFor } from './hook-rules.js';
import { verifyHookSignature, type HeaderReader, type VerifiedDelivery } from './hook-signature.js';

export interface HookDelivery {
  hookId: string;
  header: HeaderReader;
  rawBody: Buffer;
  payload: unknown;
  /** The last segment of the unsigned URL it was posted to (Docker Hub), if it was. */
  urlToken?: string;
}

export type HookAnswer =
  | { status: 'pong'; hookId: string }
  | { status: 'ignored'; hookId: string; deliveryId: string; reason: string }
  | ((QueuedDeploymentAnswer | PendingApproval) & { hookId: string; imageRef: string });

const REFUSAL_CODE = {
  unsigned: 'AUTH_REQUIRED',
  forged: 'TOKEN_INVALID',
  stale: 'TOKEN_EXPIRED',
} as const;

/**
 * An inbound delivery: signature and window checks, then the rule that maps its tag or image to
 * an image reference, then two decisions that a replay cannot get past:
 * 1. the signed bytes' digest is claimed on its own stream (`no_stream`), once per hook and for
 *    good: the same body again (GitHub's form) or the same timestamp and body again (Slipway's,
 *    inside its window), whatever delivery id header it comes with, is `409 replayed`; of
 *    identical deliveries racing, one wins the claim;
 * 2. the hook's own stream, with its expected revision, accepts the delivery unless the hook
 *    has already moved past its image, accepted its delivery id lately (a sender's retry,
 *    re-signed), or was revoked meanwhile (see deploy-hook.decider.ts).
 * Then `triggerDeploy`'s own path (approval rule, FIFO queue, idempotency, audit) acting as the
 * hook: a principal of kind `agent`, role `operator`, auth method `hook`, whose id is the hook's.
 * So `agents` and `all-but-admins` rules turn a hook's deploy into an approval request, which
 * its creator may not decide (two humans).
 *
 * The claim comes first and stays even when a later step refuses: a refused delivery sent again
 * is refused again, and one that crashed between the two is not deployed by a replay of it.
 */
@Injectable()
export class ReceiveDeployHookHandler {
  constructor(
    private readonly hooks: DeployHooks,
    private readonly writer: EventWriter,
    private readonly runner: DeciderRunner,
    private readonly commands: CommandBus,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(delivery: HookDelivery, anonymous: RequestContext): Promise<HookAnswer> {
    const hook = await this.hooks.get(delivery.hookId);
    if (!hook) throw notFound('No such deploy hook');
    if (hook.status === 'revoked')
      throw attributed(new AppError('TOKEN_REVOKED', 'This hook was revoked'), hook.id);
    const verified = verifyHookSignature(
      delivery.header,
      delivery.rawBody,
      this.box.open(hook.secretCiphertext),
      this.clock.now().getTime(),
      delivery.urlToken === undefined
        ? undefined
        : { hookId: hook.id, token: delivery.urlToken, allowed: hook.unsignedUrl === true },
    );
    if ('refused' in verified) {
      throw attributed(
        new AppError(REFUSAL_CODE[verified.refused], verified.message, {
          reason: verified.refused,
        }),
        hook.id,
      );
    }
    if (verified.event === 'ping') return { status: 'pong', hookId: hook.id };
    const ctx: RequestContext = {
      ...actingAs(anonymous, {
        id: hook.id,
        kind: 'agent',
        role: 'operator',
        name: `hook ${hook.name}`,
        preset: null,
      }),
      authMethod: 'hook',
      scopes: ['deploy:start'],
      // The signed bytes, not the delivery id header (anyone resending can change that).
      idempotencyKey: `hook:${hook.id}:${verified.digest}`,
    };
    if (deletesRef(delivery.payload))
      return {
        status: 'ignored',
        hookId: hook.id,
        deliveryId: verified.deliveryId,
        reason: 'the delivery deletes the ref: nothing is deployed from it',
      };
    const announced = announcedBy(delivery.payload);
    const rule = announced && ruleFor(hook.rules, announced);
    if (!announced || !rule) {
      return {
        status: 'ignored',
        hookId: hook.id,
        deliveryId: verified.deliveryId,
        reason: announced
          ? `no rule of this hook matches the ${announced.source} ${announced.tag}`
          : 'the delivery announces no tag or image push',
      };
    }
    const imageRef = imageOf(rule, announced);
    await this.claim(hook.id, verified, ctx);
    try {
      await this.runner.run(
        deployHookStream(hook.id),
        deployHookDecider,
        {
          kind: 'accept',
          delivery: {
            hookId: hook.id,
            serviceId: hook.serviceId,
            deliveryId: verified.deliveryId,
            digest: verified.digest,
            form: verified.form,
            source: announced.source,
            tag: announced.tag,
            imageRef,
          },
          allowRollback: rule.allowRollback === true,
        },
        ctx,
      );
    } catch (error) {
      throw error instanceof AppError ? attributed(error, hook.id) : error;
    }
    const answer = await this.commands.execute(
      new TriggerDeploy(
        {
          serviceId: hook.serviceId,
          imageTag: imageRef,
          reason: `Deploy ${imageRef} from hook ${hook.name}`.slice(0, 280),
        },
        ctx,
      ),
    );
    return { ...answer, hookId: hook.id, imageRef };
  }

  /** Claims the delivery's signed bytes for this hook, or refuses them as a replay. */
  private claim(hookId: string, verified: VerifiedDelivery, ctx: RequestContext) {
    return claimDelivery(
      this.writer,
      {
        stream: deployHookDeliveryStream(hookId, verified.digest),
        event: DeployHookDeliveryClaimed({
          hookId,
          digest: verified.digest,
          deliveryId: verified.deliveryId,
          form: verified.form,
        }),
        deliveryId: verified.deliveryId,
        attributedTo: hookId,
      },
      ctx,
    );
  }
}
