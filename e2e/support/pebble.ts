import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { issueTestCertificates } from './test-certificates.js';

/** Debian's pebble (an ACME CA for tests) and pebble-challtestsrv (its DNS), on this host. */
export interface TestPebble {
  /** The ACME directory, at `address` (where the edge proxy's container reaches this host). */
  directory: string;
  /** The CA certificate Pebble's own HTTPS is signed with (what SLIPWAY_ACME_CA_ROOT names). */
  caRootFile: string;
  /** The root that signs the certificates Pebble issues (new at each start), PEM. */
  issuingRoot(): Promise<string>;
  /** Answers `domain`'s A queries with `address` (the challenge is sent there). */
  resolve(domain: string, address: string): Promise<void>;
  stop(): Promise<void>;
}

async function ready(check: () => Promise<boolean>, what: string, log: () => string) {
  for (let i = 0; i < 100; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start:\n${log()}`);
}

/**
 * Starts pebble-challtestsrv as the DNS server (every name resolves to 127.0.0.1 unless told
 * otherwise; no AAAA) and Pebble listening on every address, validating HTTP-01 on `httpPort`
 * and TLS-ALPN-01 on `tlsPort` (where the edge proxy publishes 80 and 443), with no random
 * sleeps and no nonce rejections. `address` is where containers reach this host.
 */
export async function startPebble(options: {
  address: string;
  httpPort: number;
  tlsPort: number;
}): Promise<TestPebble> {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-pebble-'));
  issueTestCertificates(dir, {
    ca: 'Slipway test ACME root',
    server: 'pebble',
    subjectAltName: `IP:${options.address},IP:127.0.0.1`,
  });
  const [acmePort, managementPort, dnsPort, dnsManagementPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  writeFileSync(
    join(dir, 'pebble.json'),
    JSON.stringify({
      pebble: {
        listenAddress: `0.0.0.0:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: join(dir, 'cert.pem'),
        privateKey: join(dir, 'key.pem'),
        httpPort: options.httpPort,
        tlsPort: options.tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const output: string[] = [];
  const keep = (child: ChildProcess) => {
    child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
    child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
    return child;
  };
  const dns = keep(
    spawn('pebble-challtestsrv', [
      '-dns01',
      `127.0.0.1:${dnsPort}`,
      '-management',
      `127.0.0.1:${dnsManagementPort}`,
      '-defaultIPv4',
      '127.0.0.1',
      '-defaultIPv6',
      '',
      '-http01',
      '',
      '-https01',
      '',
      '-tlsalpn01',
      '',
    ]),
  );
  const pebble = keep(
    spawn('pebble', ['-config', join(dir, 'pebble.json'), '-dnsserver', `127.0.0.1:${dnsPort}`], {
      env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
    }),
  );
  const ca = readFileSync(join(dir, 'ca.pem'), 'utf8');
  const get = (port: number, path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, ca, timeout: 5000 }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  const manage = async (path: string, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${dnsManagementPort}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`challtestsrv ${path}: ${response.status}`);
  };
  const stop = async () => {
    for (const child of [pebble, dns]) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready(
      async () => (await get(acmePort, '/dir')).status === 200,
      'pebble',
      () => output.join(''),
    );
    await ready(
      async () => (await fetch(`http://127.0.0.1:${dnsManagementPort}/`)).status > 0,
      'pebble-challtestsrv',
      () => output.join(''),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    directory: `https://${options.address}:${acmePort}/dir`,
    caRootFile: join(dir, 'ca.pem'),
    issuingRoot: async () => (await get(managementPort, '/roots/0')).body,
    resolve: (domain, address) => manage('/add-a', { host: `${domain}.`, addresses: [address] }),
    stop,
  };
}
