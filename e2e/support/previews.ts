import { randomUUID } from 'node:crypto';
import type { PullRequestMove } from '../../src/deployments/git/previews/preview.decider.js';
import { previewsDecider } from '../../src/deployments/git/previews/preview.decider.js';
import { servicePreviewsStream } from '../../src/events/previews.events.js';
import { systemContext } from '../../src/kernel/request-context.js';
import { DeciderRunner } from '../../src/storage/decider-runner.js';
import type { TestApp } from './test-app.js';

/**
 * A pull request's preview of `serviceId` recorded as a verified delivery would open it (for
 * suites that test what comes after: listing, approving, closing), without a provider.
 */
export async function openPreview(
  t: TestApp,
  pr: Pick<PullRequestMove, 'serviceId' | 'number' | 'fromFork'> & Partial<PullRequestMove>,
): Promise<void> {
  await t.app.get(DeciderRunner).run(
    servicePreviewsStream(pr.serviceId),
    previewsDecider,
    {
      kind: 'move',
      pr: {
        serviceName: 'api',
        provider: 'github',
        headCommit: 'c'.repeat(40),
        headRef: 'feature',
        author: null,
        title: null,
        domain: `pr-${pr.number}.preview.example.com`,
        previewServiceId: randomUUID(),
        limit: 3,
        expiresAt: '2099-01-01T00:00:00.000Z',
        ...pr,
      },
    },
    systemContext('test: a pull request delivery'),
  );
}
