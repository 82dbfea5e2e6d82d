import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { errorForLog } from '../../common/log-text.js';
import { CancelDeployment } from '../../deployments/commands/cancel-deployment.js';
import {
  requesterOf,
  serviceSnapshot,
  validImageRef,
} from '../../deployments/deployment-launcher.js';
import { DeploymentRequests } from '../../deployments/deployment-requests.js';
import { StreamFacts } from '../../deployments/facts/stream-facts.js';
import { pullRequestRef } from '../../deployments/git/git-pull-request.js';
import { gitSourceDecider } from '../../deployments/git/git-source.decider.js';
import { previewCompose } from '../../deployments/git/previews/preview-compose.js';
import { previewUrl } from '../../deployments/git/previews/pull-request-intake.js';
import {
  previewsDecider,
  type ClosingPreview,
  type LivePreview,
} from '../../deployments/git/previews/preview.decider.js';
import { ServiceRegistrar } from '../../deployments/service-registrar.js';
import type { DeploymentGitBuild } from '../../events/deployments.events.js';
import {
  serviceGitStream,
  type GitSourceData,
  type PreviewSettings,
} from '../../events/git-sources.events.js';
import { servicePreviewsStream } from '../../events/previews.events.js';
import { systemContext, type RequestContext } from '../../kernel/request-context.js';
import { sourceWebhookContext } from '../../deployments/git/source-webhook-context.js';
import { readAll } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { ArchiveService } from '../lifecycle/archive-service.js';

const logger = new Logger('Previews');

/** The environment every preview service is registered in. */
export const PREVIEW_ENVIRONMENT = 'preview';

type Previewed = { parent: ServiceDoc; source: GitSourceData; settings: PreviewSettings };

/** What acts for a service's previews: its git source's webhook, as deliveries do. */
const previewContext = (serviceId: string, what: string) =>
  sourceWebhookContext(systemContext(`previews:${serviceId}`), serviceId, what);

/**
 * Brings a service's pull-request previews to what its previews stream records: each live
 * preview that waits for no approval runs as a service of its own (registered on first use in
 * the environment `preview`, on the service's server, with the source's preview variables and
 * limits, its compose definition the service's without published ports) at its head commit,
 * deployed on the ordinary path (queue, audit, gapless cutover, edge route with TLS); each closed
 * one is archived and its containers removed, then recorded as torn down. A preview of a
 * service that is archived, or whose source stopped previewing, is closed. Safe to repeat: a
 * commit's deployment is keyed by preview and commit, and what is done is not done again.
 */
@Injectable()
export class PreviewEnvironments {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly facts: StreamFacts,
    private readonly registrar: ServiceRegistrar,
    private readonly requests: DeploymentRequests,
    private readonly commands: CommandBus,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async reconcile(serviceId: string): Promise<void> {
    const stream = servicePreviewsStream(serviceId);
    let state = await this.runner.load(stream, previewsDecider);
    if (!Object.keys(state.live).length && !Object.keys(state.closing).length) return;
    const { source } = await this.runner.load(serviceGitStream(serviceId), gitSourceDecider);
    const parent = await this.facts.service(serviceId).catch(() => null);
    const previewed: Previewed | null =
      parent && parent.status !== 'archived' && source?.previews
        ? { parent, source, settings: source.previews }
        : null;
    if (!previewed && Object.keys(state.live).length) {
      const ctx = previewContext(serviceId, 'previews of a service that no longer has them');
      state = (
        await this.runner.run(stream, previewsDecider, { kind: 'close-all', serviceId }, ctx)
      ).state;
    }
    for (const preview of Object.values(state.live)) {
      if (!previewed || preview.awaitingApproval) continue;
      await this.deploy(previewed, preview).catch((error: unknown) =>
        logger.warn(
          `Preview #${preview.number} of service ${serviceId} could not be deployed: ${errorForLog(error)}`,
        ),
      );
    }
    for (const [previewServiceId, closing] of Object.entries(state.closing)) {
      await this.tearDown(serviceId, previewServiceId, closing).catch((error: unknown) =>
        logger.warn(
          `Preview #${closing.number} of service ${serviceId} could not be torn down: ${errorForLog(error)}`,
        ),
      );
    }
  }

  /** Closes the previews past their time to live (the sweep). */
  async expire(serviceId: string, now = new Date()): Promise<void> {
    const ctx = previewContext(serviceId, 'previews past their time to live');
    await this.runner.run(
      servicePreviewsStream(serviceId),
      previewsDecider,
      { kind: 'expire', serviceId, now: now.toISOString() },
      ctx,
    );
  }

  private async deploy(
    { parent, source, settings }: Previewed,
    preview: LivePreview,
  ): Promise<void> {
    const ctx = previewContext(parent.id, `preview of pull request #${preview.number}`);
    const compose = previewCompose(parent.compose, settings);
    if (!compose) throw new Error('the service’s compose definition cannot be previewed');
    const service = await this.service(parent, preview, compose, settings, ctx);
    if (service.status === 'archived') return;
    const imageRef = validImageRef(`${parent.imageRepository}:${preview.headCommit}`);
    const git: DeploymentGitBuild = {
      repository: source.repository,
      commit: preview.headCommit,
      ref: null,
      author: preview.author,
      message: preview.title,
      contextPath: source.contextPath,
      dockerfile: source.dockerfile,
      buildServerId: source.buildServerId ?? null,
      pushImage: source.pushImage === true,
      sourceServiceId: parent.id,
      fetchRef: pullRequestRef(preview.provider, preview.number),
      previewUrl: previewUrl(preview.domain, settings.tls),
      composeFile: source.composeFile ?? null,
      previewLimits: { memoryMb: settings.memoryMb, cpus: settings.cpus },
    };
    // What runs is the source's preview settings now, whatever they were at registration.
    const snapshot = { ...serviceSnapshot(service, imageRef), compose, env: settings.env, git };
    await this.requests.request(
      {
        service,
        imageRef,
        trigger: 'hook',
        requestedBy: requesterOf(ctx),
        idempotencyKey: `preview:${preview.previewServiceId}:${preview.headCommit}`,
        snapshot,
      },
      {
        action: 'deploy',
        payload: { serviceId: service.id, imageRef, snapshot },
        reason: `Preview of pull request #${preview.number} at ${preview.headCommit.slice(0, 12)}`,
      },
      ctx,
    );
  }

  /** The preview's service, registered when it is first deployed. */
  private async service(
    parent: ServiceDoc,
    preview: LivePreview,
    compose: string,
    settings: PreviewSettings,
    ctx: RequestContext,
  ): Promise<ServiceDoc> {
    const find = () =>
      this.facts.serviceNamed(
        PREVIEW_ENVIRONMENT,
        preview.previewServiceName,
        preview.previewServiceId,
      );
    const found = await find();
    if (found) return found;
    await this.registrar.register(
      {
        serviceId: preview.previewServiceId,
        // A preview belongs where the service it previews does.
        projectId: parent.projectId,
        name: preview.previewServiceName,
        environment: PREVIEW_ENVIRONMENT,
        serverId: parent.serverId,
        imageRepository: parent.imageRepository,
        compose,
        env: settings.env,
        approvalRule: 'none',
        healthCheckUrl: null,
        backupCommand: null,
        restoreCommand: null,
        routes: [
          {
            domain: preview.domain,
            pathPrefix: null,
            service: settings.service,
            port: settings.port,
            tls: settings.tls,
          },
        ],
        preview: { serviceId: parent.id, number: preview.number },
      },
      ctx,
    );
    const registered = await find();
    if (!registered) throw new Error('the preview’s service was not registered');
    return registered;
  }

  /**
   * A closed preview's service is archived and its compose project taken down; a deployment of
   * it still queued or running is cancelled first, and the archiving waits for the next pass.
   */
  private async tearDown(serviceId: string, previewServiceId: string, closing: ClosingPreview) {
    const { number } = closing;
    const ctx = previewContext(serviceId, `closed preview of pull request #${number}`);
    const service = await this.facts.serviceNamed(
      PREVIEW_ENVIRONMENT,
      closing.previewServiceName,
      previewServiceId,
    );
    if (service && service.status !== 'archived') {
      const active = (
        await readAll(this.reads.collection<DeploymentDoc>('deployments'), {
          serviceId: service.id,
        })
      ).filter((d) => d.status === 'queued' || d.status === 'running');
      for (const d of active)
        await this.commands.execute(
          new CancelDeployment({ deploymentId: d.id, reason: 'The preview was closed' }, ctx),
        );
      if (active.length) return;
      await this.commands.execute(
        new ArchiveService({ serviceId: service.id, composeDown: true }, ctx),
      );
    }
    await this.runner.run(
      servicePreviewsStream(serviceId),
      previewsDecider,
      { kind: 'torn-down', serviceId, number, previewServiceId },
      ctx,
    );
  }
}
