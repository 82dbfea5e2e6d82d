import { controlCharacters } from '../../common/control-characters.js';
import type { AuditEntryView } from '../../audit/trail/audit-entry-view.js';

/** One line of deployment output (or of a job run's, from that deployment) as a drain ships it. */
export interface OutputLine {
  deploymentId: string;
  serviceId: string | null;
  /** A scheduled job's run: its job and run ids; null: the deployment's own output. */
  jobId: string | null;
  runId: string | null;
  line: number;
  step: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

/** What a drain ships: an entry of the audit trail, or a line of deployment output. */
export type DrainRecord =
  | { source: 'audit'; time: string; entry: AuditEntryView }
  | { source: 'deployment-logs'; time: string; output: OutputLine };

/**
 * Text from users or containers, made safe for the team's log tools: every control, bidi and
 * line-separator character written as `\uXXXX`, so a record stays one record and a terminal
 * showing it is not steered.
 */
export function escapedText(text: string): string {
  return text.replace(
    controlCharacters(),
    (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}

/** The audit entry as one line of JSON, escaped like any other text. */
export function auditJson(entry: AuditEntryView): string {
  return escapedText(JSON.stringify(entry));
}

/** Whether the audit entry records a refusal (shipped at a higher severity). */
export function refused(entry: AuditEntryView): boolean {
  return entry.outcome !== 'succeeded';
}
