import { Inject, Injectable } from '@nestjs/common';
import { AppError, attributed, conflict, notFound } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { WrongExpectedRevisionError } from '../../eventstore/wrong-expected-revision.error.js';
import {
  DeployHookDeliveryAccepted,
  deployHookDeliveryStream,
} from '../../events/notifications.events.js';
import { actingAs, type RequestContext } from '../../kernel/request-context.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { EventWriter } from '../../storage/event-writer.js';
import type { PendingApproval } from '../approval-requests.js';
import { TriggerDeployHandler, type QueuedDeploymentAnswer } from '../commands/deploy.handlers.js';
import { DeployHooks } from './deploy-hook.handlers.js';
import { announcedBy, imageFor } from './hook-rules.js';
import { verifyHookSignature, type HeaderReader } from './hook-signature.js';

export interface HookDelivery {
  hookId: string;
  header: HeaderReader;
  rawBody: Buffer;
  payload: unknown;
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
 * An inbound delivery: signature, window and replay checks, then the rule that maps its tag or
 * image to an image reference, then `triggerDeploy`'s own path (approval rule, FIFO queue,
 * idempotency, audit) acting as the hook: a principal of kind `agent`, role `operator`, auth
 * method `hook`, whose id is the hook's. So `agents` and `all-but-admins` rules turn a hook's
 * deploy into an approval request, which its creator may not decide (two humans).
 */
@Injectable()
export class ReceiveDeployHookHandler {
  constructor(
    private readonly hooks: DeployHooks,
    private readonly writer: EventWriter,
    private readonly triggerDeploy: TriggerDeployHandler,
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
      idempotencyKey: `hook:${verified.deliveryId}`.slice(0, 200),
    };
    const announced = announcedBy(delivery.payload);
    const imageRef = announced ? imageFor(hook.rules, announced) : null;
    if (!announced || !imageRef) {
      return {
        status: 'ignored',
        hookId: hook.id,
        deliveryId: verified.deliveryId,
        reason: announced
          ? `no rule of this hook matches the ${announced.source} ${announced.tag}`
          : 'the delivery announces no tag or image push',
      };
    }
    try {
      await this.writer.append(
        deployHookDeliveryStream(hook.id, verified.deliveryId),
        [
          DeployHookDeliveryAccepted({
            hookId: hook.id,
            serviceId: hook.serviceId,
            deliveryId: verified.deliveryId,
            form: verified.form,
            source: announced.source,
            tag: announced.tag,
            imageRef,
          }),
        ],
        'no_stream',
        ctx,
      );
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) {
        throw attributed(
          conflict('This delivery was received before (replay)', {
            reason: 'replayed',
            deliveryId: verified.deliveryId,
          }),
          hook.id,
        );
      }
      throw error;
    }
    const answer = await this.triggerDeploy.execute(
      {
        serviceId: hook.serviceId,
        imageTag: imageRef,
        reason: `Deploy ${imageRef} from hook ${hook.name}`.slice(0, 280),
      },
      ctx,
    );
    return { ...answer, hookId: hook.id, imageRef };
  }
}
