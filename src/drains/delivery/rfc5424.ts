import { auditJson, escapedText, refused, type DrainRecord } from './drain-record.js';

/**
 * The structured-data id of Slipway's parameters. 32473 is the enterprise number RFC 5612
 * reserves for documentation; Slipway has none of its own, and an SD-ID without `@` must be
 * registered with IANA.
 */
export const SD_ID = 'slipway@32473';

/** RFC 5424 facilities: 13 is "log audit", 1 "user-level messages". */
const FACILITY = { audit: 13, 'deployment-logs': 1 } as const;
/** RFC 5424 severities. */
const SEVERITY = { warning: 4, notice: 5, info: 6 } as const;

/** A header field: printable US-ASCII without spaces, at most `max` characters, `-` if empty. */
function headerField(value: string, max: number): string {
  const printable = value.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return printable === '' ? '-' : printable;
}

/** An SD-PARAM value: `"`, `\` and `]` escaped (RFC 5424 §6.3.3), controls written out. */
function paramValue(value: string | number): string {
  return escapedText(String(value)).replace(/["\\\]]/g, (c) => `\\${c}`);
}

function structuredData(params: Record<string, string | number | null>): string {
  const pairs = Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== null)
    .map(([name, value]) => `${name}="${paramValue(value)}"`);
  return `[${SD_ID} ${pairs.join(' ')}]`;
}

/**
 * One record as an RFC 5424 message: `<PRI>1 TIMESTAMP HOSTNAME APP-NAME - MSGID [SD] MSG`.
 * Audit entries are facility "log audit", refusals at warning; the MSG is the entry as JSON
 * (what `auditTrail` answers). Output lines are user-level at info, the text as written but
 * with its control characters escaped. MSG starts with a BOM: it is UTF-8 (§6.4).
 */
export function syslogMessage(record: DrainRecord, hostname: string): string {
  const head = (facility: number, severity: number, msgId: string) =>
    `<${facility * 8 + severity}>1 ${record.time} ${headerField(hostname, 255)} slipway - ${headerField(msgId, 32)}`;
  if (record.source === 'audit') {
    const { entry } = record;
    const severity = refused(entry) ? SEVERITY.warning : SEVERITY.notice;
    const sd = structuredData({
      position: entry.position,
      action: entry.action,
      outcome: entry.outcome,
      stream: entry.stream,
      actor: entry.actor.id,
      requestId: entry.requestId,
    });
    return `${head(FACILITY.audit, severity, 'audit')} ${sd} \uFEFF${auditJson(entry)}`;
  }
  const { output } = record;
  const sd = structuredData({
    deploymentId: output.deploymentId,
    serviceId: output.serviceId,
    jobId: output.jobId,
    runId: output.runId,
    line: output.line,
    step: output.step,
    stream: output.stream,
  });
  const msgId = output.runId ? 'job-output' : 'deployment-output';
  return `${head(FACILITY['deployment-logs'], SEVERITY.info, msgId)} ${sd} \uFEFF${escapedText(output.text)}`;
}

/** RFC 5425 / 6587 octet counting: the message's length in bytes, a space, the message. */
export function octetCounted(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `, 'ascii'), body]);
}
