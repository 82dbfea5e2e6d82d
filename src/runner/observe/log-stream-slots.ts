import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';

/** What a refused caller is told to wait: streams last minutes, so a short retry is pointless. */
export const SLOT_RETRY_AFTER_SECONDS = 10;

/**
 * Container log streams open at once, per principal and per server. Each holds an SSH session
 * and a remote `docker compose logs -f`, so neither one caller nor everyone together may open
 * them without bound (SLIPWAY_CONTAINER_LOG_STREAMS_PER_PRINCIPAL / _PER_SERVER). Counted in
 * this process's memory: each API replica holds its own limits.
 */
@Injectable()
export class LogStreamSlots {
  private readonly principals = new Map<string, number>();
  private readonly servers = new Map<string, number>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * Takes a slot of the principal's and one of the server's, or refuses with RATE_LIMITED
   * (429, Retry-After). The function returned gives both back; calling it again does nothing.
   */
  take(principalId: string, serverId: string): () => void {
    const { containerLogsPerPrincipal, containerLogsPerServer } = this.config.streams;
    if ((this.principals.get(principalId) ?? 0) >= containerLogsPerPrincipal) {
      throw full('principal', containerLogsPerPrincipal);
    }
    if ((this.servers.get(serverId) ?? 0) >= containerLogsPerServer) {
      throw full('server', containerLogsPerServer);
    }
    add(this.principals, principalId, 1);
    add(this.servers, serverId, 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      add(this.principals, principalId, -1);
      add(this.servers, serverId, -1);
    };
  }

  /** Streams open now, of a principal or against a server. */
  open(of: { principalId: string } | { serverId: string }): number {
    return 'principalId' in of
      ? (this.principals.get(of.principalId) ?? 0)
      : (this.servers.get(of.serverId) ?? 0);
  }
}

function add(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

function full(per: 'principal' | 'server', limit: number): AppError {
  const whose = per === 'principal' ? 'you have' : 'this server has';
  return new AppError(
    'RATE_LIMITED',
    `Too many container log streams: ${whose} ${limit} open; close one or try again later`,
    { retryAfterSeconds: SLOT_RETRY_AFTER_SECONDS, per, limit },
  );
}
