import { describe, expect, it } from '@jest/globals';
import type { AuditEntryView } from '../../audit/trail/audit-entry-view.js';
import { octetCounted, syslogMessage } from './rfc5424.js';

const entry: AuditEntryView = {
  position: 7,
  eventId: 'e-1',
  time: '2026-11-29T10:00:00.000Z',
  action: 'AccessDenied',
  stream: 'token-1',
  resource: 'procedure:triggerDeploy',
  outcome: 'denied',
  code: 'FORBIDDEN',
  count: 1,
  inputFields: [],
  actor: { id: 'u-1', kind: 'user', role: 'viewer', label: 'Ann' },
  authMethod: 'session',
  channel: 'http',
  token: null,
  clientAddress: '203.0.113.9',
  requestId: 'evil"] [x y="z\u001b[31m',
};

describe('RFC 5424 messages', () => {
  it('Given a refused call, Then it is "log audit" at warning with its fields escaped', () => {
    const message = syslogMessage({ source: 'audit', time: entry.time, entry }, 'cp-1');
    expect(message.startsWith('<108>1 2026-11-29T10:00:00.000Z cp-1 slipway - audit ')).toBe(true);
    // 13 * 8 + 4: facility log audit, severity warning.
    expect(message).toContain(
      '[slipway@32473 position="7" action="AccessDenied" outcome="denied" stream="token-1" actor="u-1" requestId="evil\\"\\] [x y=\\"z\\\\u001b[31m"]',
    );
    const json = message.slice(message.indexOf('\uFEFF') + 1);
    expect(json.includes('\u001b')).toBe(false);
    expect(JSON.parse(json)).toMatchObject({ action: 'AccessDenied', outcome: 'denied' });
  });

  it('Given output with a newline and an escape sequence, Then the message stays one line', () => {
    const message = syslogMessage(
      {
        source: 'deployment-logs',
        time: entry.time,
        output: {
          deploymentId: 'd-1',
          serviceId: null,
          jobId: null,
          runId: null,
          line: 3,
          step: 'pull',
          stream: 'stderr',
          text: 'one\ntwo\u001b[2J',
        },
      },
      'host with spaces\n',
    );
    expect(message).toBe(
      '<14>1 2026-11-29T10:00:00.000Z hostwithspaces slipway - deployment-output [slipway@32473 deploymentId="d-1" line="3" step="pull" stream="stderr"] \uFEFFone\\u000atwo\\u001b[2J',
    );
  });

  it("Given a job run's output, Then it names the job and the run", () => {
    const message = syslogMessage(
      {
        source: 'deployment-logs',
        time: entry.time,
        output: {
          deploymentId: 'd-1',
          serviceId: 's-1',
          jobId: 'j-1',
          runId: 'j-1@20261129T030000Z',
          line: 1,
          step: 'job',
          stream: 'stdout',
          text: 'report done',
        },
      },
      'host',
    );
    expect(message).toBe(
      '<14>1 2026-11-29T10:00:00.000Z host slipway - job-output [slipway@32473 deploymentId="d-1" serviceId="s-1" jobId="j-1" runId="j-1@20261129T030000Z" line="1" step="job" stream="stdout"] \uFEFFreport done',
    );
  });

  it('frames by octet count, in bytes', () => {
    expect(octetCounted('é').toString('utf8')).toBe('2 é');
  });
});
