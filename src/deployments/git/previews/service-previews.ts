import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import type { DeploymentDoc } from '../../../../projections/deployments.projection.js';
import type { ServiceDoc } from '../../../../projections/services.projection.js';
import { servicePreviewsStream } from '../../../events/previews.events.js';
import { Procedure } from '../../../kernel/procedure.js';
import { ProcedureQuery } from '../../../kernel/procedure-message.js';
import { EVERYONE } from '../../../kernel/roles.js';
import { READ_STORE, type ReadStore } from '../../../readstore/read-store.port.js';
import { DeciderRunner } from '../../../storage/decider-runner.js';
import { DeploymentLookup } from '../../deployment-lookup.js';
import { deploymentSummary } from '../../deployment-views.js';
import { ServiceIdInput } from '../../queries/service-details.js';
import { previewsDecider, type LivePreview } from './preview.decider.js';
import { previewUrl } from './pull-request-intake.js';

export interface PreviewView {
  number: number;
  /** `waiting`: a fork's head commit waits for approveServicePreview; `closing`: being torn down. */
  state: 'waiting' | 'live' | 'closing';
  domain: string | null;
  /** Where it answers once deployed. */
  url: string | null;
  headCommit: string | null;
  fromFork: boolean | null;
  author: string | null;
  title: string | null;
  expiresAt: string | null;
  /** The service it runs as (in the environment `preview`), once deployed. */
  previewServiceId: string;
  previewServiceName: string;
  status: 'active' | 'archived' | null;
  currentImage: string | null;
  latestDeployment: ReturnType<typeof deploymentSummary> | null;
}

export interface ServicePreviewsAnswer {
  serviceId: string;
  /** Open pull requests, then closed ones still being torn down; by number. */
  previews: PreviewView[];
}

export class ServicePreviews extends ProcedureQuery<ServiceIdInput, ServicePreviewsAnswer> {}

/** A service's pull-request previews, as its previews stream records them, with their services. */
@Procedure.read(ServicePreviews, {
  name: 'servicePreviews',
  roles: EVERYONE,
  scopes: ['service:read'],
  input: ServiceIdInput,
  description:
    'A service’s pull-request previews: number, state (waiting for approval, live, closing), domain and URL, head commit, author, title, expiry, the preview’s service and its latest deployment.',
  project: { service: 'serviceId' },
})
export class ServicePreviewsHandler implements IQueryHandler<ServicePreviews> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly runner: DeciderRunner,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async execute({ input }: ServicePreviews): Promise<ServicePreviewsAnswer> {
    const service = await this.lookup.service(input.serviceId);
    const state = await this.runner.load(servicePreviewsStream(service.id), previewsDecider);
    const tls = service.gitSource?.previews?.tls ?? 'auto';
    const previews: PreviewView[] = [];
    for (const p of Object.values(state.live)) previews.push(await this.view(p, tls));
    for (const [previewServiceId, closing] of Object.entries(state.closing))
      previews.push({
        ...(await this.running(previewServiceId)),
        number: closing.number,
        state: 'closing',
        domain: null,
        url: null,
        headCommit: null,
        fromFork: null,
        author: null,
        title: null,
        expiresAt: null,
        previewServiceId,
        previewServiceName: closing.previewServiceName,
      });
    return { serviceId: service.id, previews: previews.sort((a, b) => a.number - b.number) };
  }

  private async view(p: LivePreview, tls: string): Promise<PreviewView> {
    return {
      ...(await this.running(p.previewServiceId)),
      number: p.number,
      state: p.awaitingApproval ? 'waiting' : 'live',
      domain: p.domain,
      url: previewUrl(p.domain, tls),
      headCommit: p.headCommit,
      fromFork: p.fromFork,
      author: p.author,
      title: p.title,
      expiresAt: p.expiresAt,
      previewServiceId: p.previewServiceId,
      previewServiceName: p.previewServiceName,
    };
  }

  /** The preview's service and its latest deployment, as the read models know them. */
  private async running(serviceId: string) {
    const service = await this.reads.collection<ServiceDoc>('services').get(serviceId);
    const latest = await this.reads
      .collection<DeploymentDoc>('deployments')
      .find({ serviceId }, { sort: { order: -1 }, limit: 1 });
    return {
      status: service?.status ?? (service ? 'active' : null),
      currentImage: service?.currentImage ?? null,
      latestDeployment: latest.items[0] ? deploymentSummary(latest.items[0]) : null,
    };
  }
}
