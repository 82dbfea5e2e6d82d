import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { GitSourceData } from '../../../events/git-sources.events.js';
import { servicePreviewsStream } from '../../../events/previews.events.js';
import type { RequestContext } from '../../../kernel/request-context.js';
import { DeciderRunner } from '../../../storage/decider-runner.js';
import type { GitPullRequest } from '../git-pull-request.js';
import { sameRepository } from '../git-push.js';
import { previewLimitReached, previewsDecider } from './preview.decider.js';

/** What a pull request delivery did to the service's previews. */
export type PullRequestAnswer =
  | { status: 'ignored'; serviceId: string; deliveryId: string; reason: string }
  | {
      status: 'preview';
      serviceId: string;
      deliveryId: string;
      number: number;
      /** What was recorded: PreviewOpened, PreviewUpdated, PreviewClosed, or nothing. */
      recorded: string[];
      domain: string;
      awaitingApproval: boolean;
    };

/** `pr-<number>.<baseDomain>`: each preview's own domain. */
export const previewDomain = (number: number, baseDomain: string) => `pr-${number}.${baseDomain}`;

/** Where a preview answers, by its route's TLS setting. */
export const previewUrl = (domain: string, tls: string) =>
  `${tls === 'off' ? 'http' : 'https'}://${domain}/`;

const HOUR_MS = 3_600_000;

/**
 * A verified pull request delivery for a service whose source previews pull requests: opening,
 * reopening or pushing moves its preview (see previewsDecider), closing or merging closes it.
 * What follows (building, deploying, tearing down) reacts to the recorded events.
 */
@Injectable()
export class PullRequestIntake {
  constructor(private readonly runner: DeciderRunner) {}

  /**
   * Why the delivery moves no preview (null: it does), before anything is claimed or recorded;
   * a pull request the limit has no room for is refused (`409 preview-limit`) here already.
   */
  async precheck(
    serviceId: string,
    source: GitSourceData,
    pr: GitPullRequest,
  ): Promise<string | null> {
    const settings = source.previews;
    if (!settings) return 'the source previews no pull requests';
    if (!sameRepository(source.repository, pr.repositoryUrls))
      return 'the delivery is for another repository than the service follows';
    if (pr.action === 'close') return null;
    const { live } = await this.runner.load(servicePreviewsStream(serviceId), previewsDecider);
    if (!live[pr.number] && Object.keys(live).length >= settings.limit)
      throw previewLimitReached(settings.limit);
    return null;
  }

  async receive(
    service: { id: string; name: string },
    source: GitSourceData,
    pr: GitPullRequest,
    deliveryId: string,
    ctx: RequestContext,
    now = new Date(),
  ): Promise<PullRequestAnswer> {
    const serviceId = service.id;
    const settings = source.previews;
    if (!settings)
      return {
        status: 'ignored',
        serviceId,
        deliveryId,
        reason: 'the source previews no pull requests',
      };
    if (!sameRepository(source.repository, pr.repositoryUrls))
      return {
        status: 'ignored',
        serviceId,
        deliveryId,
        reason: 'the delivery is for another repository than the service follows',
      };
    const stream = servicePreviewsStream(serviceId);
    const domain = previewDomain(pr.number, settings.baseDomain);
    const decision = await this.runner.run(
      stream,
      previewsDecider,
      pr.action === 'close'
        ? { kind: 'close', serviceId, number: pr.number, reason: pr.merged ? 'merged' : 'closed' }
        : {
            kind: 'move',
            pr: {
              serviceId,
              serviceName: service.name,
              number: pr.number,
              provider: pr.provider,
              headCommit: pr.headCommit,
              headRef: pr.headRef,
              fromFork: pr.fromFork,
              author: pr.author,
              title: pr.title,
              domain,
              previewServiceId: randomUUID(),
              limit: settings.limit,
              expiresAt: new Date(now.getTime() + settings.ttlHours * HOUR_MS).toISOString(),
            },
          },
      ctx,
    );
    const live = decision.state.live[pr.number];
    return {
      status: 'preview',
      serviceId,
      deliveryId,
      number: pr.number,
      recorded: decision.events.map((e) => e.type),
      domain: live?.domain ?? domain,
      awaitingApproval: live?.awaitingApproval ?? false,
    };
  }
}
