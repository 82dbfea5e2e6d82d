import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { RequestContext } from '../kernel/request-context.js';
import { AccessService, authenticatedContext, type AccessTarget } from './access.service.js';
import type { AuthenticatedIdentity, HeldCredential } from './authenticated-identity.js';
import {
  credentialEndOf,
  UNCHECKED_END,
  UNCHECKED_LIMIT,
  type CredentialEnd,
} from './credential-end.js';

export type { CredentialEnd } from './credential-end.js';

/** One long-lived response's hold on its credential. */
export interface CredentialLease {
  /** Aborted, with the CredentialEnd as its reason, once the credential stops admitting. */
  readonly signal: AbortSignal;
  /** Why it ended, once it has. */
  readonly ended: CredentialEnd | null;
  /** Stops watching (idempotent); the signal is left as it is. */
  stop(): void;
}

interface Watch {
  held: HeldCredential;
  /** The context the response was admitted with (its request's ids, channel and so on). */
  ctx: RequestContext;
  targets: readonly AccessTarget[];
  /** The call's validated input: which of its targets' projects each is judged in. */
  input: Record<string, unknown> | undefined;
  controller: AbortController;
  unchecked: number;
}

/**
 * Re-runs the guard for responses that outlive their request (server-sent event streams, MCP
 * waits): every `streams.credentialCheckMs`, each watched credential is verified again from the
 * same read models as the guard reads (once per credential per pass, however many responses
 * share it), then the MFA policy and role ∩ scopes of each response's targets, and for a target
 * in a project, the caller's role there (by the call's input, as the call itself was judged: a
 * grant revoked, the service moved to another project). A refusal ends the response: revoked,
 * expired, invalidated, principal deactivated, session ended or expired, access withdrawn.
 * Checks that cannot be made end it too after a few passes (fail closed).
 */
@Injectable()
export class CredentialWatch implements OnApplicationShutdown {
  private readonly watches = new Set<Watch>();
  private timer: NodeJS.Timeout | null = null;
  private checking = false;

  constructor(
    private readonly access: AccessService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Watches the request's credential for `targets` until stopped or `lifetime` aborts. `input`
   * is the call's validated input (path, query and body fields read together, as the call
   * pipeline judges a route): a target in a project is judged again in the project it names.
   */
  watch(
    ctx: RequestContext,
    targets: readonly AccessTarget[],
    lifetime?: AbortSignal,
    input?: Record<string, unknown>,
  ): CredentialLease {
    const controller = new AbortController();
    const held = heldCredential(ctx);
    const watch: Watch | null = held
      ? { held, ctx, targets, input, controller, unchecked: 0 }
      : null;
    const stop = () => {
      if (watch) this.forget(watch);
      lifetime?.removeEventListener('abort', stop);
    };
    if (!watch) {
      // Guarded routes always carry a credential; without one there is nothing to hold on to.
      controller.abort({ reason: 'no credential', code: 'AUTH_REQUIRED' } satisfies CredentialEnd);
    } else if (!lifetime?.aborted) {
      this.watches.add(watch);
      lifetime?.addEventListener('abort', stop, { once: true });
      this.timer ??= this.startTimer();
    }
    return {
      signal: controller.signal,
      get ended() {
        return controller.signal.aborted ? (controller.signal.reason as CredentialEnd) : null;
      },
      stop,
    };
  }

  /** How many responses are watched now. */
  size(): number {
    return this.watches.size;
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.watches.clear();
  }

  private startTimer(): NodeJS.Timeout {
    const timer = setInterval(() => void this.checkAll(), this.config.streams.credentialCheckMs);
    timer.unref();
    return timer;
  }

  private forget(watch: Watch): void {
    this.watches.delete(watch);
    if (this.watches.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** One pass; a pass still running when the next is due makes that one skip. */
  private async checkAll(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const identities = new Map<string, Promise<AuthenticatedIdentity>>();
      await Promise.all([...this.watches].map((watch) => this.check(watch, identities)));
    } finally {
      this.checking = false;
    }
  }

  private async check(
    watch: Watch,
    identities: Map<string, Promise<AuthenticatedIdentity>>,
  ): Promise<void> {
    const key = keyOf(watch.held);
    let identity = identities.get(key);
    if (!identity) {
      identity = this.access.reverify(watch.held);
      identities.set(key, identity);
    }
    try {
      const verified = await identity;
      for (const target of watch.targets) {
        const scopes = await this.access.admit(target, verified);
        // In the target's project, by the role the caller holds there now.
        if (target.project) {
          const ctx = authenticatedContext(watch.ctx, verified, scopes);
          await this.access.inProject(target, ctx, watch.input);
        }
      }
      watch.unchecked = 0;
    } catch (error) {
      const end = error instanceof AppError ? credentialEndOf(error.code) : null;
      watch.unchecked += 1;
      if (end) this.end(watch, end);
      else if (watch.unchecked >= UNCHECKED_LIMIT) this.end(watch, UNCHECKED_END);
    }
  }

  private end(watch: Watch, end: CredentialEnd): void {
    if (!this.watches.has(watch)) return;
    this.forget(watch);
    watch.controller.abort(end);
  }
}

/** The credential the guard verified for this request, by id: never the secret itself. */
function heldCredential(ctx: RequestContext): HeldCredential | null {
  if (ctx.authMethod === 'token' && ctx.tokenId) return { method: 'token', tokenId: ctx.tokenId };
  if (ctx.authMethod === 'session' && ctx.sessionDigest) {
    return { method: 'session', sessionDigest: ctx.sessionDigest };
  }
  return null;
}

function keyOf(held: HeldCredential): string {
  return held.method === 'token' ? `token:${held.tokenId}` : `session:${held.sessionDigest}`;
}
