import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CredentialEnd } from '../access/credential-watch.js';
import { CLOCK, type Clock } from '../common/clock.js';
import type { RequestContext } from '../kernel/request-context.js';
import type { RegisteredProcedure } from '../rpc/procedure-registry.js';

/** Sends one progress notification: a counter that only grows, and a line of text. */
export type ProgressSink = (progress: number, message: string) => Promise<void>;

/** The read procedures a wait goes through (already authorized for the caller). */
export interface WaitReads {
  details: RegisteredProcedure;
  logs: RegisteredProcedure;
}

export interface WaitOutcome {
  deploymentId: string;
  status: string;
  finished: boolean;
  logLines: number;
  /** Not finished within the wait: how to go on (the deployment runs on regardless). */
  next?: string;
  /** Why the wait ended early: the caller's credential no longer admits it. */
  ended?: CredentialEnd;
}

const FINISHED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);
const POLL_MS = 250;
export const MAX_WAIT_MS = 15 * 60 * 1000;
const MAX_LINE_CHARS = 2000;
/**
 * The SDK's client dispatches a notification a microtask after reading it, and forgets a
 * request's progress handler as soon as it reads the response: were both read together, the last
 * lines would be dropped. A short pause before answering keeps them apart.
 */
export const PROGRESS_SETTLE_MS = 25;

/**
 * Follows a deployment until it finishes, the signal aborts (the caller went away or its
 * credential ended) or `MAX_WAIT_MS` passes, sending each new log line as a progress
 * notification (when the caller asked for progress). Reads go through the same procedures, and
 * so the same read models, as `deploymentLogs` and `deploymentDetails`.
 */
@Injectable()
export class DeploymentWaiter {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  async follow(
    deploymentId: string,
    reads: WaitReads,
    ctx: RequestContext,
    progress: ProgressSink | null,
    signal: AbortSignal,
    limitMs = MAX_WAIT_MS,
  ): Promise<WaitOutcome> {
    const until = this.clock.now().getTime() + Math.min(limitMs, MAX_WAIT_MS);
    const drain = async (afterLine: number): Promise<number> => {
      for (;;) {
        if (signal.aborted) return afterLine;
        const page = (await reads.logs.invoke({ deploymentId, afterLine, limit: 1000 }, ctx)) as {
          lines: { line: number; step: string; text: string }[];
          nextAfterLine: number;
          more: boolean;
        };
        for (const l of page.lines) {
          await progress?.(l.line, `[${l.step}] ${l.text.slice(0, MAX_LINE_CHARS)}`);
        }
        afterLine = page.nextAfterLine;
        if (!page.more) return afterLine;
      }
    };
    let lines = 0;
    let status = 'unknown';
    for (;;) {
      // Aborted (the caller left, or its credential ended): nothing more is read for it.
      if (signal.aborted) return { deploymentId, status, finished: false, logLines: lines };
      lines = await drain(lines);
      ({ status } = (await reads.details.invoke({ deploymentId }, ctx)) as { status: string });
      if (FINISHED.has(status)) {
        // The lines written between the last read and the end.
        lines = await drain(lines);
        if (progress) {
          await progress(lines + 1, `deployment ${status}`);
          await sleep(PROGRESS_SETTLE_MS);
        }
        return { deploymentId, status, finished: true, logLines: lines };
      }
      if (this.clock.now().getTime() >= until) {
        return {
          deploymentId,
          status,
          finished: false,
          logLines: lines,
          next: 'Still running: call the same tool again with the same planId and wait (nothing is deployed twice), or read deploymentDetails',
        };
      }
      await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
    }
  }
}
