import { Inject, Injectable } from '@nestjs/common';
import type { NotificationChannelDoc } from '../../../projections/notification-channels.projection.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { MAIL_SENDER, type MailSender } from '../../mail/mail-sender.port.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { hmacHex } from '../../deployments/hooks/hook-signature.js';
import { NotificationTargetPolicy } from '../target-policy.js';
import { summaryLine } from './notification-message.js';
import { postTo } from './signed-post.js';

export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null = null,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/**
 * Sends one message on one channel, or throws a DeliveryError saying why not (never with the
 * target or the secret in it). Webhook: the JSON payload, signed with HMAC-SHA256 over
 * `timestamp + "." + body` (`X-Slipway-Signature: sha256=<hex>`, `X-Slipway-Timestamp`);
 * Slack: `{text}` for an incoming webhook; email: a plain-text mail through the mail port.
 * URLs are held to the notification address policy (private ranges refused by default).
 */
@Injectable()
export class ChannelSender {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    private readonly policy: NotificationTargetPolicy,
  ) {}

  async send(
    channel: NotificationChannelDoc,
    deliveryId: string,
    payload: Record<string, unknown>,
    nowMs: number,
  ): Promise<{ statusCode: number | null }> {
    const target = this.box.open(channel.targetCiphertext);
    if (channel.kind === 'email') {
      const line = summaryLine(payload);
      await this.mail.send({
        to: target,
        subject: line,
        text: `${line}\n\n${JSON.stringify(payload, null, 2)}\n`,
      });
      return { statusCode: null };
    }
    const body =
      channel.kind === 'slack'
        ? JSON.stringify({ text: summaryLine(payload) })
        : JSON.stringify(payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Slipway-Notifications',
    };
    if (channel.kind === 'webhook' && channel.secretCiphertext) {
      const timestamp = String(Math.floor(nowMs / 1000));
      const secret = this.box.open(channel.secretCiphertext);
      headers['x-slipway-event'] = String(payload.subject);
      headers['x-slipway-delivery'] = deliveryId;
      headers['x-slipway-timestamp'] = timestamp;
      headers['x-slipway-signature'] = `sha256=${hmacHex(secret, `${timestamp}.${body}`)}`;
    }
    const url = new URL(target);
    let address: string;
    try {
      address = await this.policy.pin(url.hostname);
    } catch (error) {
      throw new DeliveryError(error instanceof Error ? error.message : 'address refused');
    }
    let statusCode: number;
    try {
      ({ statusCode } = await postTo(
        url,
        address,
        headers,
        body,
        this.config.notifications.timeoutMs,
      ));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new DeliveryError(
        typeof code === 'string'
          ? code
          : error instanceof Error
            ? error.message.slice(0, 200)
            : 'failed',
      );
    }
    if (statusCode < 200 || statusCode > 299) {
      throw new DeliveryError(`answered HTTP ${statusCode}`, statusCode);
    }
    return { statusCode };
  }
}
