import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { DrainSettings } from '../../events/drains.events.js';
import { NotificationTargetPolicy } from '../../notifications/target-policy.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { drainTarget } from '../drain-endpoint.js';
import type { DrainRecord } from './drain-record.js';
import { shipOtlp } from './otlp-sender.js';
import { syslogMessage } from './rfc5424.js';
import { shipSyslog } from './syslog-sender.js';

/**
 * Sends a batch to a drain's receiver, connecting only to the address the notification address
 * policy allows for its host (checked at every shipment: a name may resolve elsewhere later).
 */
@Injectable()
export class DrainSenders {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly policy: NotificationTargetPolicy,
  ) {}

  async send(settings: DrainSettings, records: DrainRecord[], hostname: string): Promise<void> {
    const target = drainTarget(settings.kind, settings.endpoint);
    const address = await this.policy.pin(target.host);
    const timeoutMs = this.config.drains.timeoutMs;
    if (settings.kind === 'syslog') {
      await shipSyslog({
        target,
        address,
        caCertificate: settings.caCertificate,
        messages: records.map((r) => syslogMessage(r, hostname)),
        timeoutMs,
      });
      return;
    }
    const headers = settings.sealedHeaders
      ? (JSON.parse(this.box.open(settings.sealedHeaders)) as Record<string, string>)
      : {};
    await shipOtlp({
      url: target.url!,
      address,
      caCertificate: settings.caCertificate,
      headers,
      records,
      hostname,
      timeoutMs,
    });
  }
}
