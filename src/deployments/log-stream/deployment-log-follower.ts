import { Injectable } from '@nestjs/common';
import { WakeSignal } from '../../common/wake-signal.js';
import { DeploymentLogStore } from '../deployment-log-store.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { DeploymentLogFeed } from './deployment-log-feed.js';

export interface FollowedLine {
  line: number;
  step: string;
  stream: 'stdout' | 'stderr';
  text: string;
  at: string;
}

export interface FollowSink {
  /** Lines in order, numbered from 1, each once. */
  lines(lines: FollowedLine[]): void;
  /** The deployment is final and every line has been given; nothing follows. */
  end(status: string, lastLine: number): void;
  error(error: unknown): void;
}

/** Final states of a deployment and of a job run (which is kept in the same log store). */
const FINAL = new Set(['succeeded', 'failed', 'cancelled', 'skipped']);

/** The current status of what the log belongs to. */
export type StatusOf = (logId: string) => Promise<string>;
const PAGE = 200;
/** A follower re-reads at least this often even if nothing woke it (a safety net, not the path). */
const SAFETY_WAKE_MS = 60_000;

/**
 * Gives a deployment's log lines after `afterLine` to a sink as they are stored, then its final
 * status. Reads the store only when woken (see DeploymentLogFeed) and one page at a time. A job
 * run's output is followed the same way, with the run's status in place of the deployment's.
 */
@Injectable()
export class DeploymentLogFollower {
  constructor(
    private readonly store: DeploymentLogStore,
    private readonly lookup: DeploymentLookup,
    private readonly feed: DeploymentLogFeed,
  ) {}

  /** Starts following; the returned function stops it (idempotent). */
  follow(
    deploymentId: string,
    afterLine: number,
    sink: FollowSink,
    statusOf: StatusOf = async (id) => (await this.lookup.deployment(id)).status,
  ): () => void {
    const wake = new WakeSignal();
    let stopped = false;
    const unfollow = this.feed.follow(deploymentId, wake);
    const stop = () => {
      if (stopped) return;
      stopped = true;
      unfollow();
      wake.signal();
    };
    const run = async () => {
      let last = afterLine;
      while (!stopped) {
        // Reset before reading: a wake-up during the read makes the next wait return at once.
        wake.reset();
        const page = await this.store.read(deploymentId, last, PAGE);
        if (stopped) return;
        if (page.lines.length > 0) {
          sink.lines(page.lines as FollowedLine[]);
          last = page.nextAfterLine;
          if (page.more) continue;
        }
        const status = await statusOf(deploymentId);
        if (stopped) return;
        if (FINAL.has(status)) {
          // The runner stores every line before it records the final state: read what is left.
          const rest = await this.store.read(deploymentId, last, PAGE);
          if (rest.lines.length > 0) {
            sink.lines(rest.lines as FollowedLine[]);
            last = rest.nextAfterLine;
            if (rest.more) continue;
          }
          if (stopped) return;
          stop();
          sink.end(status, last);
          return;
        }
        await wake.wait(SAFETY_WAKE_MS);
      }
    };
    run().catch((error: unknown) => {
      if (stopped) return;
      stop();
      sink.error(error);
    });
    return stop;
  }
}
