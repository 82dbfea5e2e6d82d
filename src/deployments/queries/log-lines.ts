import { IsInt, Min } from 'class-validator';
import { field } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import type { DeploymentLogStore, LogPage } from '../deployment-log-store.js';

/** The line a page of a log starts after: optional, a line number (0, the default, is none). */
export function AfterLine(): PropertyDecorator {
  return field(Omittable(), IsInt(), Min(0));
}

/** Which lines of a log a reader asks for: after `afterLine`, at most `limit` of them. */
export interface LogLinesAsked {
  afterLine?: number;
  limit?: number;
}

/** Lines of a log (a deployment's, a job run's), in order: from the first, 200 by default. */
export function readLogLines(
  logs: DeploymentLogStore,
  logId: string,
  { afterLine, limit }: LogLinesAsked,
): Promise<LogPage> {
  return logs.read(logId, afterLine ?? 0, limit ?? 200);
}
