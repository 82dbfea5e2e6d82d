import type { ErrorCode } from '../../common/error-codes.js';
import type { AuditTarget, CallerAttribution } from '../../kernel/audit-attribution.js';

/** One refused call, as the recorder sees it. */
export interface Refusal {
  target: AuditTarget;
  caller: CallerAttribution;
  clientAddress: string | null;
  /** null: not a refusal but a command that succeeded without changing anything. */
  code: ErrorCode | '*' | null;
  inputFields: string[];
  requestId: string | null;
}

/** What to write: the refusal that opened a window, or the repeats a closed window coalesced. */
export interface RefusalRecord {
  refusal: Refusal;
  count: number;
  coalesced: boolean;
  firstAt: Date;
  lastAt: Date;
}

interface Window {
  key: string;
  client: string;
  startedAt: number;
  sample: Refusal;
  repeats: number;
  firstRepeatAt: number;
  lastRepeatAt: number;
}

export interface CoalescerLimits {
  windowMs: number;
  /** Distinct refusal kinds one client may open per window before they share one overflow key. */
  keysPerClient: number;
  /** Windows kept in memory at most; beyond it the oldest are closed early. */
  maxWindows: number;
}

export const DEFAULT_COALESCER_LIMITS: Omit<CoalescerLimits, 'windowMs'> = {
  keysPerClient: 64,
  maxWindows: 10_000,
};

/**
 * Bounds what refusals cost to record. Per window and client address: the first refusal of
 * each kind (credential, target, code) is written at once, its identical repeats become one
 * event with a count when the window closes, and past `keysPerClient` kinds the rest share one
 * overflow kind (refusals per surface, no-effect commands). So one client writes at most
 * 2 × (keysPerClient + 3) events per window, whatever it sends.
 */
export class RefusalCoalescer {
  private readonly windows = new Map<string, Window>();
  private readonly keysByClient = new Map<string, number>();

  constructor(private readonly limits: CoalescerLimits) {}

  /** Returns the record to write now, or null when the refusal joined an open window. */
  admit(refusal: Refusal, now: Date, closed: RefusalRecord[]): RefusalRecord | null {
    const at = now.getTime();
    const client = refusal.clientAddress ?? 'unknown';
    let key = refusalKey(refusal);
    let window = this.windows.get(key);
    if (window && at - window.startedAt >= this.limits.windowMs) {
      this.close(window, closed);
      window = undefined;
    }
    if (!window && (this.keysByClient.get(client) ?? 0) >= this.limits.keysPerClient) {
      refusal = overflowOf(refusal);
      key = refusalKey(refusal);
      window = this.windows.get(key);
      if (window && at - window.startedAt >= this.limits.windowMs) {
        this.close(window, closed);
        window = undefined;
      }
    }
    if (window) {
      if (window.repeats === 0) window.firstRepeatAt = at;
      window.repeats += 1;
      window.lastRepeatAt = at;
      return null;
    }
    if (this.windows.size >= this.limits.maxWindows) {
      const oldest = this.windows.values().next().value;
      if (oldest) this.close(oldest, closed);
    }
    this.windows.set(key, {
      key,
      client,
      startedAt: at,
      sample: refusal,
      repeats: 0,
      firstRepeatAt: at,
      lastRepeatAt: at,
    });
    this.keysByClient.set(client, (this.keysByClient.get(client) ?? 0) + 1);
    return { refusal, count: 1, coalesced: false, firstAt: now, lastAt: now };
  }

  /** Closes the windows that have run out (all of them when `everything`). */
  closeDue(now: Date, everything = false): RefusalRecord[] {
    const closed: RefusalRecord[] = [];
    for (const window of [...this.windows.values()]) {
      if (everything || now.getTime() - window.startedAt >= this.limits.windowMs) {
        this.close(window, closed);
      }
    }
    return closed;
  }

  /** Drops the window a refusal opened (its first record could not be written). */
  forget(refusal: Refusal): void {
    const window = this.windows.get(refusalKey(refusal));
    if (window) this.drop(window);
  }

  private drop(window: Window): void {
    this.windows.delete(window.key);
    const left = (this.keysByClient.get(window.client) ?? 1) - 1;
    if (left <= 0) this.keysByClient.delete(window.client);
    else this.keysByClient.set(window.client, left);
  }

  get openWindows(): number {
    return this.windows.size;
  }

  private close(window: Window, closed: RefusalRecord[]): void {
    this.drop(window);
    if (window.repeats === 0) return;
    closed.push({
      refusal: window.sample,
      count: window.repeats,
      coalesced: true,
      firstAt: new Date(window.firstRepeatAt),
      lastAt: new Date(window.lastRepeatAt),
    });
  }
}

function refusalKey(r: Refusal): string {
  return JSON.stringify([
    r.clientAddress,
    r.caller.principalId,
    r.caller.tokenId,
    r.caller.authMethod,
    r.target.surface,
    r.target.channel ?? 'http',
    r.target.name,
    r.code,
  ]);
}

/** The shared kind a client's refusals fall into once it has opened too many kinds. */
function overflowOf(r: Refusal): Refusal {
  return {
    target: { surface: r.target.surface, name: '*', lane: r.target.lane },
    caller: { principalId: null, kind: 'anonymous', role: null, authMethod: 'none', tokenId: null },
    clientAddress: r.clientAddress,
    code: r.code === null ? null : '*',
    inputFields: [],
    requestId: null,
  };
}
