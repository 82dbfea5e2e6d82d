import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { ServiceDoc } from '../../projections/services.projection.js';
import type { RequestContext } from '../kernel/request-context.js';
import { badRequest, conflict } from '../common/app-error.js';
import { ComposePolicyGuard } from './compose-policy/compose-policy.guard.js';
import { NO_BUILD_CONTEXT } from './compose.js';
import { assertServerInService, assertServiceActive } from './lifecycle/lifecycle-rules.js';
import { DeploymentLookup } from './deployment-lookup.js';
import { StreamFacts } from './facts/stream-facts.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { DuplicateEventIdError } from '../eventstore/wrong-expected-revision.error.js';
import { idempotencyClaimDecider } from './idempotency-claim.decider.js';
import {
  idempotencyKeyStream,
  serviceDeploymentsStream,
  type DeploymentSnapshot,
  type Requester,
} from '../events/deployments.events.js';
import { formatImageReference, parseImageReference, repositoryOf } from './image-reference.js';
import { serviceDeploymentsDecider } from './service-deployments.decider.js';

export interface LaunchRequest {
  service: ServiceDoc;
  imageRef: string;
  trigger: 'session' | 'token' | 'agent' | 'hook' | 'rollback' | 'approval';
  requestedBy: Requester;
  /** Replays an earlier deployment's frozen snapshot (rollback); else the service as it is now. */
  snapshot?: DeploymentSnapshot;
  rollbackOf?: string | null;
  approvalId?: string | null;
  idempotencyKey?: string | null;
  /** A compose intake's request digest: part of what an idempotency key stands for. */
  overrideDigest?: string;
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

export function triggerOf(ctx: RequestContext): 'session' | 'token' | 'agent' | 'hook' {
  if (ctx.authMethod === 'hook') return 'hook';
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

/** A tag alone: what follows `:` in a reference (no `/`, no `:`, no `@`). */
const BARE_TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/**
 * The image a deploy asks for: a full reference, or a tag alone (`1.4.2`), which is a tag of the
 * service's own repository (a reference without a tag is never deployed, so nothing that could
 * run is read otherwise). Plans and deploys read it alike.
 */
export function imageRefFor(imageTag: string, repository: string): string {
  return validImageRef(BARE_TAG.test(imageTag) ? `${repository}:${imageTag}` : imageTag);
}

/** The service's image only: a tag of another repository is a mistake, not a deployment. */
export function checkRepository(imageRef: string, repository: string): void {
  const ref = parseImageReference(imageRef)!;
  if (repositoryOf(ref) !== repository) {
    throw badRequest(`imageTag must be an image of ${repository}`, [
      { path: 'imageTag', message: `repository ${repositoryOf(ref)} is not the service's` },
    ]);
  }
}

/** What a deploy command answers once its deployment is queued (not sent for approval). */
export interface QueuedDeploymentAnswer {
  status: 'queued';
  deploymentId: string;
  created: boolean;
}

/** The snapshot a deployment of `service` freezes: the service's settings as they are now. */
export function serviceSnapshot(service: ServiceDoc, imageRef: string): DeploymentSnapshot {
  return {
    serviceName: service.name,
    environment: service.environment,
    serverId: service.serverId,
    imageRef,
    compose: service.compose,
    env: service.env,
    healthCheckUrl: service.healthCheckUrl,
    ...(service.routes?.length ? { routes: service.routes } : {}),
  };
}

/**
 * Queues a deployment on its service's FIFO stream with a frozen snapshot. With an idempotency
 * key, the key is claimed on its own stream first, and a repeat of the same request returns
 * the first deployment's id.
 */
@Injectable()
export class DeploymentLauncher {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly lookup: DeploymentLookup,
    private readonly facts: StreamFacts,
    private readonly policy: ComposePolicyGuard,
  ) {}

  /**
   * What a deployment of `service` needs to be queued: an active service, its server in
   * service with an approved host key, and a compose file the server's policy allows (for a
   * rollback's older snapshot too: what the server allows now decides). Checked here for every
   * launch, and by a trigger or rollback before it asks for an approval, so that nobody is asked
   * to approve what cannot run. Settings come from the streams (StreamFacts), not a read model.
   */
  async launchable(
    service: ServiceDoc,
    imageRef: string,
    frozen?: DeploymentSnapshot,
  ): Promise<DeploymentSnapshot> {
    const serverId = frozen?.serverId ?? service.serverId;
    const server = await this.facts.server(serverId);
    assertServiceActive(service);
    assertServerInService(server);
    if (!server.hostKeyApproved) {
      throw conflict(`Approve the host key of server ${server.name} before deploying to it`, {
        serverId,
      });
    }
    const snapshot = frozen ?? serviceSnapshot(service, imageRef);
    this.policy.enforce(snapshot.compose, server, snapshot.env);
    // A service that builds its image builds from the context the deployment brings.
    const unbuildable = snapshot.context
      ? []
      : this.policy.unbuildable(snapshot.compose, snapshot.env);
    if (unbuildable.length) throw badRequest(NO_BUILD_CONTEXT, unbuildable);
    return snapshot;
  }

  async launch(
    request: LaunchRequest,
    ctx: RequestContext,
  ): Promise<{ deploymentId: string; created: boolean }> {
    const { service } = request;
    const snapshot = await this.launchable(service, request.imageRef, request.snapshot);
    const key = request.idempotencyKey ?? null;
    const inputDigest = key
      ? createHash('sha256')
          .update(
            JSON.stringify([
              service.id,
              request.imageRef,
              request.trigger,
              request.rollbackOf ?? null,
              ...(request.overrideDigest ? [request.overrideDigest] : []),
            ]),
          )
          .digest('hex')
      : null;
    let deploymentId: string = randomUUID();
    let created = true;
    if (key && inputDigest) {
      const claimed = await this.claim(service.id, key, inputDigest, deploymentId, ctx);
      if (claimed !== deploymentId) {
        created = false;
        deploymentId = claimed;
        if (await this.lookup.reads.collection('deployments').get(claimed)) {
          return { deploymentId, created };
        }
        // Claimed but not (yet) queued: the claimant is in flight or crashed in between. Queue
        // it under the claimed id; the trigger's fixed event id lets only one of us succeed.
      }
    }
    try {
      await this.runner.run(
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
    } catch (error) {
      if (!(error instanceof DuplicateEventIdError)) throw error;
    }
    return { deploymentId, created };
  }

  /** The deployment the key stands for: ours when this request claims it first. */
  private async claim(
    serviceId: string,
    key: string,
    inputDigest: string,
    deploymentId: string,
    ctx: RequestContext,
  ): Promise<string> {
    const queue = await this.runner.load(
      serviceDeploymentsStream(serviceId),
      serviceDeploymentsDecider,
    );
    const claim =
      queue.legacyIdempotency.get(key) ??
      (
        await this.runner.run(
          idempotencyKeyStream(serviceId, key),
          idempotencyClaimDecider,
          { serviceId, deploymentId, inputDigest },
          ctx,
          20,
        )
      ).state.claim!;
    if (claim.inputDigest !== inputDigest) {
      throw conflict('This Idempotency-Key was used for a different request', {
        deploymentId: claim.deploymentId,
      });
    }
    return claim.deploymentId;
  }
}
