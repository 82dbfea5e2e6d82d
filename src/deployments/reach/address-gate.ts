import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import {
  addressVerdict,
  compileAddressPolicy,
  type AddressRule,
} from '../../config/address-policy.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';

const LOOKUP_TIMEOUT_MS = 5_000;

/** A host Slipway will not connect to: it resolves into a refused range, or not at all. */
export class AddressRefusedError extends Error {
  constructor(
    readonly kind: 'refused' | 'unresolved',
    message: string,
  ) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The address to connect to for `host` under `rules`: a name is resolved once, every address it
 * resolves to must be allowed, and the first is returned. `refusedBy` ends the refusal message.
 * Shared with the notification channels, which apply their own policy.
 */
export async function pinAddress(
  host: string,
  rules: AddressRule[],
  resolver: Resolver,
  refusedBy: string,
): Promise<string> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = await resolver(bare);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0)
      throw new AddressRefusedError('unresolved', `${host} does not resolve`);
  }
  for (const address of addresses) {
    const verdict = addressVerdict(rules, address);
    if (!verdict.allowed) {
      const what = isIP(bare) ? 'is' : 'resolves to';
      throw new AddressRefusedError(
        'refused',
        `${host} ${what} ${/^[aeiou]/.test(verdict.rule ?? '') ? 'an' : 'a'} ${verdict.rule} address, which ${refusedBy}`,
      );
    }
  }
  return addresses[0];
}

/**
 * The server address policy (`SLIPWAY_SERVER_ADDRESS_POLICY`) applied to hosts: a name is
 * resolved once, every address it resolves to must be allowed, and the caller connects to the
 * address returned, never to the name, so a second lookup cannot land somewhere else.
 */
@Injectable()
export class AddressGate {
  resolver: Resolver = systemResolver;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The address to connect to for `host` (a name, an IP, or a bracketed IPv6 literal). */
  pin(host: string): Promise<string> {
    return pinAddress(
      host,
      compileAddressPolicy(this.config.serverAddressPolicy),
      this.resolver,
      'the server address policy refuses (SLIPWAY_SERVER_ADDRESS_POLICY)',
    );
  }

  /**
   * At registration: a host that resolves into a refused range is an error; one that does not
   * resolve yet is accepted (it is checked again, and pinned, at every connection).
   */
  async refusal(host: string): Promise<string | null> {
    try {
      await this.pin(host);
      return null;
    } catch (error) {
      if (error instanceof AddressRefusedError && error.kind === 'refused') return error.message;
      return null;
    }
  }
}
