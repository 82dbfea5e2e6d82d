import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import {
  commitStatusRequest,
  repositoryPath,
} from '../../deployments/git/commit-status-request.js';
import { gitSourceDecider } from '../../deployments/git/git-source.decider.js';
import { serviceGitStream } from '../../events/git-sources.events.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { NotificationTargetPolicy } from '../target-policy.js';
import { DeliveryError } from './channel-sender.js';
import type { CommitStatusPayload } from './commit-status-deliveries.js';
import { postTo } from './signed-post.js';

/**
 * Sets one commit status at the provider, with the source's token as it is now (read from the
 * source's stream, unsealed only to be sent), or throws a DeliveryError saying why not (never
 * with the token in it). The API's address is held to the notification address policy.
 */
@Injectable()
export class CommitStatusSender {
  constructor(
    private readonly streams: DeciderRunner,
    private readonly policy: NotificationTargetPolicy,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(payload: CommitStatusPayload): Promise<{ statusCode: number }> {
    const { source } = await this.streams.load(
      serviceGitStream(payload.serviceId),
      gitSourceDecider,
    );
    const target = source?.commitStatus;
    if (!source || !target) throw new DeliveryError('the source no longer reports statuses');
    const path = repositoryPath(source.repository);
    if (!path) throw new DeliveryError('the repository address names no owner/name');
    const request = commitStatusRequest(
      target,
      path,
      payload,
      this.box.open(target.tokenCiphertext),
    );
    let address: string;
    try {
      address = await this.policy.pin(request.url.hostname);
    } catch (error) {
      throw new DeliveryError(error instanceof Error ? error.message : 'address refused');
    }
    let statusCode: number;
    try {
      ({ statusCode } = await postTo(
        request.url,
        address,
        request.headers,
        request.body,
        this.config.notifications.timeoutMs,
      ));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new DeliveryError(typeof code === 'string' ? code : 'the provider did not answer');
    }
    if (statusCode < 200 || statusCode > 299)
      throw new DeliveryError(`answered HTTP ${statusCode}`, statusCode);
    return { statusCode };
  }
}
