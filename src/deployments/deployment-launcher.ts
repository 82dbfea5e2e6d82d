import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { ServiceDoc } from '../../projections/services.projection.js';
import type { RequestContext } from '../access/request-context.js';
import { badRequest, conflict } from '../common/app-error.js';
import { ComposePolicyGuard } from './compose-policy/compose-policy.guard.js';
import { DeploymentLookup } from './deployment-lookup.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import {
  serviceDeploymentsStream,
  type DeploymentSnapshot,
  type Requester,
} from './deployments.events.js';
import { formatImageReference, parseImageReference } from './image-reference.js';
import { serviceDeploymentsDecider } from './service-deployments.decider.js';

export interface LaunchRequest {
  service: ServiceDoc;
  imageRef: string;
  trigger: 'session' | 'token' | 'agent' | 'rollback' | 'approval';
  requestedBy: Requester;
  /** Replays an earlier deployment's frozen snapshot (rollback); else the service as it is now. */
  snapshot?: DeploymentSnapshot;
  rollbackOf?: string | null;
  approvalId?: string | null;
  idempotencyKey?: string | null;
}

export function requesterOf(ctx: RequestContext): Requester {
  const p = ctx.principal!;
  return {
    principalId: p.id,
    kind: p.kind,
    role: p.role,
    authMethod: ctx.authMethod,
    tokenId: ctx.tokenId,
  };
}

export function triggerOf(ctx: RequestContext): 'session' | 'token' | 'agent' {
  if (ctx.principal?.kind === 'agent') return 'agent';
  return ctx.authMethod === 'token' ? 'token' : 'session';
}

export function validImageRef(value: string, path = 'imageTag'): string {
  const ref = parseImageReference(value);
  if (!ref) {
    throw badRequest(`${path} must be an image reference with a tag or digest`, [
      { path, message: 'e.g. registry.example.com/team/app:1.4.2 or ...@sha256:<digest>' },
    ]);
  }
  return formatImageReference(ref);
}

/**
 * Queues a deployment on its service's FIFO stream with a frozen snapshot. With an idempotency
 * key, a repeat of the same request returns the first deployment's id.
 */
@Injectable()
export class DeploymentLauncher {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
    private readonly policy: ComposePolicyGuard,
  ) {}

  async launch(
    request: LaunchRequest,
    ctx: RequestContext,
  ): Promise<{ deploymentId: string; created: boolean }> {
    const { service } = request;
    const serverId = request.snapshot?.serverId ?? service.serverId;
    const server = await this.lookup.server(serverId);
    if (!server.hostKeyApproved) {
      throw conflict(`Approve the host key of server ${server.name} before deploying to it`, {
        serverId,
      });
    }
    const snapshot: DeploymentSnapshot = request.snapshot ?? {
      serviceName: service.name,
      environment: service.environment,
      serverId: service.serverId,
      imageRef: request.imageRef,
      compose: service.compose,
      env: service.env,
      healthCheckUrl: service.healthCheckUrl,
    };
    // Also for a rollback's older snapshot: what the server allows now decides.
    this.policy.enforce(snapshot.compose, server);
    const key = request.idempotencyKey ?? null;
    const inputDigest = key
      ? createHash('sha256')
          .update(
            JSON.stringify([
              service.id,
              request.imageRef,
              request.trigger,
              request.rollbackOf ?? null,
            ]),
          )
          .digest('hex')
      : null;
    const deploymentId = randomUUID();
    const decision = await this.runner.run(
      serviceDeploymentsStream(service.id),
      serviceDeploymentsDecider,
      {
        kind: 'trigger',
        event: {
          deploymentId,
          serviceId: service.id,
          imageRef: request.imageRef,
          trigger: request.trigger,
          requestedBy: request.requestedBy,
          snapshot: { ...snapshot, imageRef: request.imageRef },
          rollbackOf: request.rollbackOf ?? null,
          approvalId: request.approvalId ?? null,
          idempotencyKey: key,
          inputDigest,
        },
      },
      ctx,
      200,
    );
    if (decision.events.length === 0 && key) {
      return { deploymentId: decision.state.idempotency.get(key)!.deploymentId, created: false };
    }
    return { deploymentId, created: true };
  }
}
