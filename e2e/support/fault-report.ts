import type { Outcome, RequestRecord } from '../fixtures/fault-load.js';

/** One fault as it was run: when, on which hosts, and how long until every replica served. */
export interface FaultRun {
  name: string;
  startedAt: number;
  /** When every replica served again (and, for the runner, its orphan was settled). */
  recoveredAt: number;
  /** Hosts whose answers could not come back while cut off (their in-flight requests). */
  cutOff: { address: string; from: number; to: number }[];
}

export interface FaultLine {
  fault: string;
  requests: number;
  counts: Record<Outcome, number>;
  /** Requests connected to a host just before its cable was cut: no answer could come back. */
  cutInFlight: number;
  recoveryMs: number;
}

const OUTCOMES: Outcome[] = ['ok', 'refused', 'unreachable', 'broken', 'hung'];

/**
 * The requests started during each fault (from its start to its recovery), by outcome. A request
 * left without an answer because its replica's cable was cut while it was in flight is counted
 * apart: it says nothing about whether a reachable replica answers in time.
 */
export function faultLines(records: RequestRecord[], faults: FaultRun[]): FaultLine[] {
  return faults.map((fault) => {
    const during = records.filter(
      (r) => r.startedAt >= fault.startedAt && r.startedAt <= fault.recoveredAt,
    );
    const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
    let cutInFlight = 0;
    for (const r of during) {
      if (r.outcome === 'hung' && wasCutOff(r, fault)) cutInFlight += 1;
      else counts[r.outcome] += 1;
    }
    return {
      fault: fault.name,
      requests: during.length,
      counts,
      cutInFlight,
      recoveryMs: fault.recoveredAt - fault.startedAt,
    };
  });
}

/** Hung requests over the whole run that no cut explains (the goal is none). */
export function unexplainedHangs(records: RequestRecord[], faults: FaultRun[]): RequestRecord[] {
  return records.filter((r) => r.outcome === 'hung' && !faults.some((f) => wasCutOff(r, f)));
}

function wasCutOff(record: RequestRecord, fault: FaultRun): boolean {
  return fault.cutOff.some(
    (cut) =>
      record.target.includes(`//${cut.address}:`) &&
      record.startedAt <= cut.to &&
      record.endedAt >= cut.from,
  );
}

/** The report as a Markdown table, printed by the suite. */
export function faultTable(lines: FaultLine[], extra: Record<string, number[]>): string {
  const extraNames = Object.keys(extra);
  const head = ['fault', 'requests', ...OUTCOMES, 'cut in flight', ...extraNames, 'recovery (s)'];
  const rows = lines.map((line, i) => [
    line.fault,
    String(line.requests),
    ...OUTCOMES.map((o) => String(line.counts[o])),
    String(line.cutInFlight),
    ...extraNames.map((name) => String(extra[name][i])),
    (line.recoveryMs / 1000).toFixed(1),
  ]);
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
