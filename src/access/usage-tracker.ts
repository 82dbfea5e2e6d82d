import { Logger } from '@nestjs/common';
import type { Clock } from '../common/clock.js';
import { errorForLog } from '../common/log-text.js';
import type { CollectionSpec, Doc, ReadStore } from '../readstore/read-store.port.js';

/** When a token (`token_usage`, id: token id) or session (`session_activity`) was last used. */
export interface UsageDoc extends Doc {
  /** ISO 8601; the flushed value, up to `flushMs` older than the last use. */
  lastUsedAt: string;
}

export const TOKEN_USAGE: CollectionSpec = { name: 'token_usage' };
export const SESSION_ACTIVITY: CollectionSpec = { name: 'session_activity' };

const logger = new Logger('Access');

/**
 * Remembers when a token or session was last used without a write per request: times are
 * kept in memory and flushed to a plain collection (not an event, not a projection) at most
 * every `flushMs`. After a restart the flushed value is the best known.
 */
export class UsageTracker {
  private readonly recent = new Map<string, number>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: ReadStore,
    private readonly spec: CollectionSpec,
    private readonly clock: Clock,
    private readonly flushMs = 30_000,
  ) {}

  async start(): Promise<void> {
    await this.store.ensureCollection(this.spec);
    this.timer = setInterval(() => {
      // The store unreachable (a restart, a cut link): the times stay in memory for the next.
      this.flush().catch((error: unknown) =>
        logger.warn(`Could not record ${this.spec.name}; trying again`, errorForLog(error)),
      );
    }, this.flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  touch(id: string): void {
    this.recent.set(id, this.clock.now().getTime());
    this.dirty.add(id);
  }

  async lastUsed(id: string): Promise<Date | null> {
    const known = this.recent.get(id);
    if (known !== undefined) return new Date(known);
    const stored = await this.store.collection<UsageDoc>(this.spec.name).get(id);
    if (!stored) return null;
    this.recent.set(id, Date.parse(stored.lastUsedAt));
    return new Date(stored.lastUsedAt);
  }

  async flush(): Promise<void> {
    if (this.dirty.size === 0) return;
    const ids = [...this.dirty];
    this.dirty.clear();
    try {
      await this.store.transaction(async (session) => {
        const usage = session.collection<UsageDoc>(this.spec.name);
        for (const id of ids) {
          const at = this.recent.get(id);
          if (at !== undefined) await usage.put({ id, lastUsedAt: new Date(at).toISOString() });
        }
      });
    } catch (error) {
      for (const id of ids) this.dirty.add(id);
      throw error;
    }
  }
}
