import { connect, type ConnectionOptions } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseRfc5424, sdParams, startSyslog, type TestSyslog } from './support/rsyslog.js';

/** Sends `messages` over one TLS connection, octet-counted (RFC 5425: `LEN SP MSG`). */
function send(options: ConnectionOptions, messages: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(options, () => {
      for (const m of messages) socket.write(`${Buffer.byteLength(m)} ${m}`);
      socket.end();
    });
    socket.once('error', reject);
    socket.once('close', () => resolve());
  });
}

describe('the test syslog receiver: Debian rsyslogd over TLS', () => {
  let syslog: TestSyslog;
  beforeAll(async () => {
    syslog = await startSyslog();
  });
  afterAll(async () => {
    await syslog?.stop();
  });

  it('receives octet-counted messages from a client that trusts its CA, fields intact', async () => {
    const structured = String.raw`[slipway@32473 project="shop" note="a \] b \"q\" c\\d"][meta seq="1"]`;
    const first = `<165>1 2024-05-01T12:00:00.123Z app.example slipway 4242 DEPLOY ${structured} \uFEFFdeployed ✓`;
    const second = '<14>1 2024-05-01T12:00:01Z app.example slipway - - - first line\nsecond line';
    await send(
      { host: '127.0.0.1', port: syslog.port, ca: syslog.caPem, servername: syslog.serverName },
      [first, second],
    );

    const received = await syslog.waitFor((m) => m.length >= 2, 'both messages');
    expect(received).toHaveLength(2);
    expect(received[0]).toEqual({
      raw: first,
      pri: 165,
      version: 1,
      timestamp: '2024-05-01T12:00:00.123Z',
      hostname: 'app.example',
      appName: 'slipway',
      procId: '4242',
      msgId: 'DEPLOY',
      structuredData: structured,
      msg: 'deployed ✓',
    });
    expect(sdParams(received[0].structuredData)).toEqual({
      'slipway@32473': { project: 'shop', note: 'a ] b "q" c\\d' },
      meta: { seq: '1' },
    });
    // rsyslog escapes control characters on receipt: the LF arrives as #012, on one line.
    expect(received[1]).toMatchObject({
      pri: 14,
      procId: '-',
      msgId: '-',
      structuredData: '-',
      msg: 'first line#012second line',
    });
  });

  it('refuses a client that does not trust its CA', async () => {
    await expect(
      send({ host: '127.0.0.1', port: syslog.port, servername: syslog.serverName }, ['<14>1 x']),
    ).rejects.toMatchObject({
      code: expect.stringMatching(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE/),
    });
  });

  it('parses messages without MSG and refuses what is not RFC 5424', () => {
    expect(parseRfc5424('<0>1 - - - - - -')).toMatchObject({
      pri: 0,
      structuredData: '-',
      msg: '',
    });
    expect(parseRfc5424('<13>1 - h a - - [x@1 k=""]')).toMatchObject({
      structuredData: '[x@1 k=""]',
    });
    expect(sdParams('[x@1 k=""]')).toEqual({ 'x@1': { k: '' } });
    expect(() => parseRfc5424('<13>Jan  1 00:00:00 host app: hello')).toThrow(/not an RFC 5424/);
    expect(() => parseRfc5424('<13>1 - h a - - [x@1 k="]')).toThrow(/unterminated/);
    expect(() => sdParams('[x@1 k=unquoted]')).toThrow(/malformed SD-PARAM/);
  });
});
