import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { freePort } from './ports.js';
import { issueTestCertificates } from './test-certificates.js';

/** One message as rsyslog received it: the RFC 5424 text and its fields. */
export interface ReceivedSyslog {
  /** The message as received (framing removed), control characters escaped by rsyslog as #ooo. */
  raw: string;
  pri: number;
  version: number;
  timestamp: string;
  hostname: string;
  appName: string;
  procId: string;
  msgId: string;
  /** `-` or the SD elements as sent (`[id k="v"]...`); see sdParams. */
  structuredData: string;
  /** The MSG part ('' when absent), a leading UTF-8 BOM removed. */
  msg: string;
}

/** Debian's rsyslogd listening for syslog over TLS (RFC 5425) on loopback. */
export interface TestSyslog {
  /** TCP port on 127.0.0.1; TLS, octet-counted framing (`LEN SP MSG`). */
  port: number;
  /** The CA that signed rsyslog's certificate (SAN DNS:localhost and IP:127.0.0.1), PEM. */
  caPem: string;
  /** The name to verify rsyslog's certificate against: 'localhost'. */
  serverName: string;
  /** Every message received so far, in order. */
  messages(): Promise<ReceivedSyslog[]>;
  /** Polls (up to 20 s) until `predicate` holds for the received list; throws with what came. */
  waitFor(predicate: (m: ReceivedSyslog[]) => boolean, what: string): Promise<ReceivedSyslog[]>;
  /** Stops rsyslogd and removes its directory. */
  stop(): Promise<void>;
}

const RSYSLOGD = '/usr/sbin/rsyslogd';

/**
 * rsyslog's whole configuration (no system config, no imuxsock/imklog). What arrives on the TLS
 * input goes, one rawmsg per line, to received.log; rsyslogd's own messages (processed here
 * rather than sent to the host's /dev/log or journal) to rsyslogd.log. Control characters are
 * escaped on receipt (LF as #012), so a multi-line MSG stays on one line. A Direct main queue
 * writes each message as it is received; no rate limit, and room for large messages.
 */
function config(dir: string, port: number): string {
  return `global(
  workDirectory="${join(dir, 'work')}"
  processInternalMessages="on"
  net.enableDNS="off"
  maxMessageSize="64k"
  parser.escapeControlCharactersOnReceive="on"
  defaultNetstreamDriver="ossl"
  defaultNetstreamDriverCAFile="${join(dir, 'ca.pem')}"
  defaultNetstreamDriverCertFile="${join(dir, 'cert.pem')}"
  defaultNetstreamDriverKeyFile="${join(dir, 'key.pem')}"
)
main_queue(queue.type="Direct")
module(load="imtcp" StreamDriver.Name="ossl" StreamDriver.Mode="1" StreamDriver.AuthMode="anon")
template(name="slipwayRawmsg" type="list") {
  property(name="rawmsg")
  constant(value="\\n")
}
ruleset(name="received") {
  action(type="omfile" file="${join(dir, 'received.log')}" template="slipwayRawmsg")
}
input(type="imtcp" port="${port}" address="127.0.0.1" ruleset="received"
  rateLimit.interval="0")
*.* action(type="omfile" file="${join(dir, 'rsyslogd.log')}")
`;
}

/** The SD elements at the start of `text` (each `[...]`, quoted values may hold `\]`). */
function sdElements(text: string): { elements: string[]; rest: string } {
  const elements: string[] = [];
  let i = 0;
  while (text[i] === '[') {
    const start = i;
    let quoted = false;
    for (i++; i < text.length; i++) {
      const c = text[i];
      if (quoted && c === '\\') i++;
      else if (c === '"') quoted = !quoted;
      else if (!quoted && c === ']') break;
    }
    if (i >= text.length) throw new Error(`unterminated SD element in ${JSON.stringify(text)}`);
    elements.push(text.slice(start, ++i));
  }
  return { elements, rest: text.slice(i) };
}

/** `<PRI>VERSION SP TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID SP SD [SP MSG]`. */
export function parseRfc5424(raw: string): ReceivedSyslog {
  const header = /^<(\d{1,3})>([1-9]\d{0,2}) (\S+) (\S+) (\S+) (\S+) (\S+) /.exec(raw);
  if (!header) throw new Error(`not an RFC 5424 message: ${JSON.stringify(raw)}`);
  const body = raw.slice(header[0].length);
  let structuredData: string;
  let rest: string;
  if (body.startsWith('-')) {
    structuredData = '-';
    rest = body.slice(1);
  } else {
    const sd = sdElements(body);
    if (sd.elements.length === 0) throw new Error(`no STRUCTURED-DATA in ${JSON.stringify(raw)}`);
    structuredData = sd.elements.join('');
    rest = sd.rest;
  }
  if (rest !== '' && !rest.startsWith(' ')) {
    throw new Error(`no SP after STRUCTURED-DATA in ${JSON.stringify(raw)}`);
  }
  const [, pri, version, timestamp, hostname, appName, procId, msgId] = header;
  return {
    raw,
    pri: Number(pri),
    version: Number(version),
    timestamp,
    hostname,
    appName,
    procId,
    msgId,
    structuredData,
    msg: rest.slice(1).replace(/^\uFEFF/, ''),
  };
}

/** SD-ID → PARAM-NAME → value, with `\"`, `\\` and `\]` unescaped (RFC 5424 6.3.3). */
export function sdParams(structuredData: string): Record<string, Record<string, string>> {
  const result: Record<string, Record<string, string>> = {};
  if (structuredData === '-') return result;
  const { elements, rest } = sdElements(structuredData);
  if (rest !== '') throw new Error(`not STRUCTURED-DATA: ${JSON.stringify(structuredData)}`);
  for (const element of elements) {
    const inner = element.slice(1, -1);
    const id = /^[^ =\]"]+/.exec(inner)?.[0];
    if (!id) throw new Error(`no SD-ID in ${JSON.stringify(element)}`);
    const params = (result[id] ??= {});
    const param = / ([^ =\]"]+)="((?:\\.|[^"\\])*)"/y;
    param.lastIndex = id.length;
    while (param.lastIndex < inner.length) {
      const m = param.exec(inner);
      if (!m) throw new Error(`malformed SD-PARAM in ${JSON.stringify(element)}`);
      params[m[1]] = m[2].replace(/\\(["\\\]])/g, '$1');
    }
  }
  return result;
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Starts rsyslogd in the foreground with a CA, certificate and configuration of its own. */
export async function startSyslog(): Promise<TestSyslog> {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-rsyslog-'));
  mkdirSync(join(dir, 'work'));
  const port = await freePort();
  try {
    issueTestCertificates(dir, {
      ca: 'Slipway test syslog CA',
      server: 'localhost',
      subjectAltName: 'DNS:localhost,IP:127.0.0.1',
    });
    writeFileSync(join(dir, 'rsyslog.conf'), config(dir, port));
    // rsyslogd runs on despite config errors; checking first makes a mistake fail at once.
    execFileSync(RSYSLOGD, ['-N1', '-f', join(dir, 'rsyslog.conf')], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    // The message holds the failed command and its stderr.
    throw new Error(`rsyslog could not be set up: ${(error as Error).message}`, { cause: error });
  }
  // -i: a pid file of its own (the default is the system daemon's /run/rsyslogd.pid).
  const rsyslogd = spawn(
    RSYSLOGD,
    ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslogd.pid')],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  rsyslogd.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let spawnError: Error | undefined;
  rsyslogd.on('error', (error) => (spawnError = error));
  const gone = new Promise((r) => rsyslogd.once('exit', r));
  const caPem = readFileSync(join(dir, 'ca.pem'), 'utf8');
  const serverName = 'localhost';
  const exited = () =>
    spawnError !== undefined || rsyslogd.exitCode !== null || rsyslogd.signalCode !== null;
  const diagnostics = () => {
    const state = exited()
      ? `exited (${spawnError?.message ?? rsyslogd.signalCode ?? `code ${rsyslogd.exitCode}`})`
      : 'running';
    const internal = readIfThere(join(dir, 'rsyslogd.log'));
    return `rsyslogd ${state}; stderr:\n${stderr}\nrsyslogd.log:\n${internal}`;
  };

  const stop = async () => {
    if (!exited()) {
      rsyslogd.kill('SIGTERM');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  // Ready once a TLS handshake with the test CA succeeds (the listener and driver are up).
  const handshake = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, ca: caPem, servername: serverName });
      socket.once('secureConnect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  try {
    for (let i = 0; ; i++) {
      if (exited()) throw new Error(`rsyslogd did not start: ${diagnostics()}`);
      if (await handshake()) break;
      if (i === 100) throw new Error(`rsyslogd did not listen on ${port}: ${diagnostics()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }

  const messages = async () => {
    const text = await readFile(join(dir, 'received.log'), 'utf8').catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      },
    );
    // The last piece is '' or a line rsyslog is still writing.
    return text.split('\n').slice(0, -1).map(parseRfc5424);
  };

  return {
    port,
    caPem,
    serverName,
    messages,
    async waitFor(predicate, what) {
      for (let i = 0; i < 200; i++) {
        const received = await messages();
        if (predicate(received)) return received;
        await new Promise((r) => setTimeout(r, 100));
      }
      const received = (await messages()).map((m) => m.raw);
      throw new Error(
        `timed out waiting for ${what}; received ${received.length}:\n${received.join('\n')}\n` +
          diagnostics(),
      );
    },
    stop,
  };
}
