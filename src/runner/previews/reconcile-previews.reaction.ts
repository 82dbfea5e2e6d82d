import { Inject, Logger } from '@nestjs/common';
import { EventsHandler } from '@nestjs/cqrs';
import { errorForLog } from '../../common/log-text.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { CommittedEventOf } from '../../eventstore/committed-event.js';
import { ServiceGitSourceRemoved, ServiceGitSourceSet } from '../../events/git-sources.events.js';
import { ServiceArchived } from '../../events/lifecycle.events.js';
import {
  PreviewApproved,
  PreviewClosed,
  PreviewOpened,
  PreviewUpdated,
} from '../../events/previews.events.js';
import { Reaction } from '../../storage/reactions/reaction.js';
import { PreviewEnvironments } from './preview-environments.js';

const logger = new Logger('Previews');

type PreviewNews =
  | CommittedEventOf<typeof PreviewOpened>
  | CommittedEventOf<typeof PreviewUpdated>
  | CommittedEventOf<typeof PreviewApproved>
  | CommittedEventOf<typeof PreviewClosed>
  | CommittedEventOf<typeof ServiceGitSourceSet>
  | CommittedEventOf<typeof ServiceGitSourceRemoved>
  | CommittedEventOf<typeof ServiceArchived>;

/**
 * A preview opened, pushed to, approved or closed, or its service's source or the service itself
 * changed: the service's previews are brought to what the events say at once (the sweep does it
 * again later for anything that failed). Failures are logged, never thrown: a server that cannot
 * be reached must not hold up every other reaction.
 */
@EventsHandler(
  PreviewOpened.Committed,
  PreviewUpdated.Committed,
  PreviewApproved.Committed,
  PreviewClosed.Committed,
  ServiceGitSourceSet.Committed,
  ServiceGitSourceRemoved.Committed,
  ServiceArchived.Committed,
)
export class ReconcilePreviews extends Reaction<PreviewNews> {
  constructor(
    private readonly previews: PreviewEnvironments,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected async react(event: PreviewNews): Promise<void> {
    if (this.config.runner.mode === 'off') return;
    const { serviceId } = event.data;
    await this.previews
      .reconcile(serviceId)
      .catch((error: unknown) =>
        logger.warn(
          `The previews of service ${serviceId} could not be reconciled: ${errorForLog(error)}`,
        ),
      );
  }
}
