import { EventEmitter } from 'node:events';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  PRIMARY_STORE,
  type CollectionSpec,
  type Doc,
  type ReadStore,
} from '../readstore/read-store.port.js';

export interface LogLineData {
  deploymentId: string;
  line: number;
  step: string;
  stream: 'stdout' | 'stderr';
  text: string;
  at: string;
}

/** One line of `deployment_logs`; id `<deploymentId>:<line, 9 digits>`. */
export type LogLine = LogLineData & Doc;

/** A page of a deployment's output, after a line number. */
export interface LogPage {
  deploymentId: string;
  lines: Pick<LogLineData, 'line' | 'step' | 'stream' | 'text' | 'at'>[];
  /** The `afterLine` that reads on from here. */
  nextAfterLine: number;
  more: boolean;
}

/** Not a projection: the only copy of deployment output, in the primary store. */
export const DEPLOYMENT_LOGS: CollectionSpec = {
  name: 'deployment_logs',
  indexes: [{ fields: ['deploymentId', 'line'] }],
};

/**
 * Deployment output, one document per line in `deployment_logs` (not events: output is bulky
 * and not a decision). Numbered per deployment, so readers page with `afterLine` and live
 * subscribers can resume where they stopped. The runner appends; `deploymentLogs` reads.
 * Listeners in this process hear of each append once it is committed (the live log stream).
 */
@Injectable()
export class DeploymentLogStore implements OnModuleInit {
  private readonly appended = new EventEmitter().setMaxListeners(0);

  constructor(@Inject(PRIMARY_STORE) private readonly primary: ReadStore) {}

  /** Calls `listener` with the deployment id after each committed append in this process. */
  onAppended(listener: (deploymentId: string) => void): () => void {
    this.appended.on('appended', listener);
    return () => this.appended.off('appended', listener);
  }

  /**
   * Calls `listener` soon after the store may have changed in any process (lines a runner in a
   * worker appended among them); null when the store cannot tell, and then readers poll.
   */
  onChangedAnywhere(listener: () => void): (() => void) | null {
    return this.primary.onChanged?.(listener) ?? null;
  }

  async onModuleInit(): Promise<void> {
    await this.primary.ensureCollection(DEPLOYMENT_LOGS);
  }

  async append(lines: LogLineData[]): Promise<void> {
    await this.primary.transaction(async (session) => {
      const logs = session.collection<LogLine>(DEPLOYMENT_LOGS.name);
      for (const l of lines) {
        await logs.put({ ...l, id: `${l.deploymentId}:${String(l.line).padStart(9, '0')}` });
      }
    });
    for (const id of new Set(lines.map((l) => l.deploymentId))) this.appended.emit('appended', id);
  }

  async read(deploymentId: string, afterLine: number, limit: number): Promise<LogPage> {
    const page = await this.primary
      .collection<LogLine>(DEPLOYMENT_LOGS.name)
      .find({ deploymentId, line: { $gt: afterLine } }, { sort: { line: 1 }, limit });
    const lines = page.items.map(({ line, step, stream, text, at }) => ({
      line,
      step,
      stream,
      text,
      at,
    }));
    return {
      deploymentId,
      lines,
      nextAfterLine: lines.length ? lines[lines.length - 1].line : afterLine,
      more: page.nextCursor !== null,
    };
  }
}
