import { performance } from 'node:perf_hooks';
import { Inject, Injectable } from '@nestjs/common';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { AddressGate, AddressRefusedError } from './address-gate.js';
import {
  classifyFailure,
  failedReport,
  type ConnectionFailure,
  type ConnectionReport,
} from './connection-report.js';
import { sshTargetOf } from './pinned-target.js';
import { connectPinned, exchangeHostKey } from './ssh-connect.js';

/** What a keyscan saw at `host:port`: the host key, or why there was none. */
export interface HostKeyScan {
  host: string;
  port: number;
  /** The address connected to, after the server address policy. */
  address: string | null;
  ok: boolean;
  /** `SHA256:...`, the format `registerServer` pins and `approveServerHostKey` repeats. */
  fingerprint: string | null;
  keyType: string | null;
  latencyMs: number | null;
  error: ConnectionFailure | null;
}

export const CHECKS_OFF =
  'Server checks are off on this Slipway (SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS=0)';

const elapsed = (since: number) => Math.max(0, Math.round(performance.now() - since));

/**
 * Connections made to look at a server rather than to deploy to it: a keyscan of a host not yet
 * registered, and checks of a registered one. Each goes to the address the server address policy
 * allowed (resolved once), within SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS, runs nothing and hangs
 * up. Failures are answers (a report with a class), never exceptions, except a refused address
 * at a keyscan, which is bad input.
 */
@Injectable()
export class ServerReach {
  constructor(
    private readonly gate: AddressGate,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** False when the setting is 0: Slipway then connects to servers only to deploy and back up. */
  get enabled(): boolean {
    return this.config.serverCheckTimeoutSeconds > 0;
  }

  private get timeoutMs(): number {
    return this.config.serverCheckTimeoutSeconds * 1000;
  }

  /** The host key `host:port` presents; throws the AddressRefusedError of a refused address. */
  async scan(host: string, port: number): Promise<HostKeyScan> {
    const none = { fingerprint: null, keyType: null, latencyMs: null };
    let address: string;
    try {
      address = await this.gate.pin(host);
    } catch (error) {
      if (error instanceof AddressRefusedError && error.kind === 'refused') throw error;
      return { host, port, address: null, ok: false, ...none, error: classifyFailure(error) };
    }
    const started = performance.now();
    try {
      const key = await exchangeHostKey(address, port, null, this.timeoutMs);
      return { host, port, address, ok: true, ...key, latencyMs: elapsed(started), error: null };
    } catch (error) {
      return { host, port, address, ok: false, ...none, error: classifyFailure(error) };
    }
  }

  /**
   * Connects to a registered server with its pinned host key: `login` also authenticates with
   * its sealed key (unsealed in memory for this connection only); `handshake` stops before.
   */
  async check(server: ServerDoc, mode: ConnectionReport['mode']): Promise<ConnectionReport> {
    let address: string;
    try {
      address = await this.gate.pin(server.host);
    } catch (error) {
      return failedReport(mode, null, classifyFailure(error));
    }
    const started = performance.now();
    try {
      if (mode === 'handshake') {
        await exchangeHostKey(address, server.sshPort, server.hostKeyFingerprint, this.timeoutMs);
      } else {
        let target;
        try {
          target = { ...sshTargetOf(server, (c) => this.box.open(c)), host: address };
        } catch {
          return failedReport(mode, address, {
            class: 'key-unusable',
            message: "the server's private key cannot be decrypted (was the secret key changed?)",
          });
        }
        (await connectPinned(target, this.timeoutMs)).end();
      }
    } catch (error) {
      return failedReport(mode, address, classifyFailure(error));
    }
    return {
      ok: true,
      mode,
      address,
      reachable: true,
      hostKeyMatches: true,
      authenticated: mode === 'login' ? true : null,
      latencyMs: elapsed(started),
      error: null,
    };
  }
}
