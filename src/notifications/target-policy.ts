import { Inject, Injectable } from '@nestjs/common';
import { badRequest } from '../common/app-error.js';
import { compileAddressPolicy, type AddressRule } from '../config/address-policy.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import {
  AddressRefusedError,
  pinAddress,
  systemResolver,
  type Resolver,
} from '../deployments/reach/address-gate.js';
import type { ChannelKind } from '../events/notifications.events.js';

const REFUSED_BY = 'the notification address policy refuses (SLIPWAY_NOTIFICATION_ADDRESS_POLICY)';

/**
 * The notification address policy: the server policy's built-in refusals and the private
 * ranges, then `SLIPWAY_NOTIFICATION_ADDRESS_POLICY`. Applied when a channel's target is set
 * (a refused host is a 400 naming `target`) and again at every delivery (the name may resolve
 * elsewhere by then), where the connection goes to the address checked.
 */
@Injectable()
export class NotificationTargetPolicy {
  resolver: Resolver = systemResolver;
  private readonly rules: AddressRule[];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.rules = compileAddressPolicy(`deny:private ${config.notifications.addressPolicy}`);
  }

  /** The address to connect to for `host`; throws AddressRefusedError when refused or unresolved. */
  pin(host: string): Promise<string> {
    return pinAddress(host, this.rules, this.resolver, REFUSED_BY);
  }

  /**
   * At creation and update: a URL target whose host is, or resolves to, a refused address is a
   * 400 on `target`. A name that does not resolve (yet) is accepted: delivery checks it again.
   */
  async check(kind: ChannelKind, target: string): Promise<void> {
    if (kind === 'email') return;
    await this.checkUrl(target, 'target');
  }

  /** The same check for any URL an input names (a drain's endpoint, say), as a 400 on `field`. */
  async checkUrl(url: string, field: string): Promise<void> {
    try {
      await this.pin(new URL(url).hostname.replace(/^\[(.*)\]$/, '$1'));
    } catch (error) {
      if (error instanceof AddressRefusedError && error.kind === 'refused') {
        throw badRequest(`${field} refused: ${error.message}`, [
          { path: field, message: error.message },
        ]);
      }
      if (!(error instanceof AddressRefusedError)) throw error;
    }
  }
}
