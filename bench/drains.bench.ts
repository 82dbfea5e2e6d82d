import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { median, read, readyService, rpc, signUpOwner, type ApiSession } from './bench-api.js';
import { startSlipway } from './http-load.js';

export interface DrainsResult {
  seconds: number;
  rounds: number;
  /** triggerDeploy req/s, median of the rounds, per drain state. */
  none: number;
  failing: number;
  delivering: number;
  /** Records the delivering drain took per second while it caught up with the whole history. */
  catchUpRecordsPerSecond: number;
  records: number;
}

/** An OTLP receiver stand-in: answers 503 (failing) or 200 after reading the request. */
async function receiver(status: number): Promise<{ server: Server; url: string; bytes(): number }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => res.writeHead(status).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/v1/logs`, bytes: () => bytes };
}

async function triggers(url: string, cookie: string, serviceId: string, seconds: number) {
  const result = await autocannon({
    url: `${url}/trpc/triggerDeploy`,
    connections: 10,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ json: { serviceId, imageTag: 'ghcr.io/acme/api:2.0.0' } }),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error('triggerDeploy failed under load');
  return result.requests.average;
}

const setDrain = (session: ApiSession, drainId: string, endpoint: string, enabled: boolean) =>
  rpc(session, 'configureDrain', {
    drainId,
    displayName: drainId,
    kind: 'otlp',
    endpoint,
    sources: ['audit', 'deployment-logs'],
    enabled,
    startAt: 'beginning',
  });

/**
 * Whether drains slow commands: ten clients triggering deploys with no drain, with a drain whose
 * receiver answers 503 (it retries and lags), and with one whose receiver takes everything,
 * rounds interleaved on one server. Then how fast a drain catches up with the whole history.
 */
export async function benchDrains(seconds: number, rounds: number): Promise<DrainsResult> {
  const slipway = await startSlipway({
    SLIPWAY_RUNNER: 'off',
    SLIPWAY_SERVER_CHECK_TIMEOUT_SECONDS: '0',
    // The drains' own settings at their defaults (a look each second, retries from 1 s).
    SLIPWAY_NOTIFICATION_ADDRESS_POLICY: 'allow:loopback',
  });
  const failing = await receiver(503);
  const taking = await receiver(200);
  try {
    const session = await signUpOwner(slipway.url);
    const serviceId = await readyService(session, 'api');
    const figures = { none: [] as number[], failing: [] as number[], delivering: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      await setDrain(session, 'failing', failing.url, false);
      await setDrain(session, 'taking', taking.url, false);
      figures.none.push(await triggers(slipway.url, session.cookie, serviceId, seconds));
      await setDrain(session, 'failing', failing.url, true);
      figures.failing.push(await triggers(slipway.url, session.cookie, serviceId, seconds));
      await setDrain(session, 'failing', failing.url, false);
      await setDrain(session, 'taking', taking.url, true);
      figures.delivering.push(await triggers(slipway.url, session.cookie, serviceId, seconds));
    }
    // The whole history, shipped by a new drain from the beginning.
    await setDrain(session, 'taking', taking.url, false);
    await setDrain(session, 'failing', failing.url, false);
    const started = performance.now();
    await setDrain(session, 'history', taking.url, true);
    let delivered = 0;
    for (;;) {
      const { drains } = await read<{
        drains: { drainId: string; delivery: { behind: number; delivered: number } }[];
      }>(session, 'drains', undefined);
      const history = drains.find((d) => d.drainId === 'history')!;
      delivered = history.delivery.delivered;
      if (history.delivery.behind <= 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const elapsed = (performance.now() - started) / 1000;
    return {
      seconds,
      rounds,
      none: median(figures.none),
      failing: median(figures.failing),
      delivering: median(figures.delivering),
      catchUpRecordsPerSecond: delivered / elapsed,
      records: delivered,
    };
  } finally {
    failing.server.close();
    taking.server.close();
    await slipway.stop();
  }
}

export function printDrains(result: DrainsResult): void {
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString('en-US', { maximumFractionDigits: digits });
  console.log(
    `\ndrains and commands (triggerDeploy, 10 clients, ${result.seconds} s, median of ${result.rounds} interleaved rounds)`,
  );
  console.log(`  no drain             ${fmt(result.none)} req/s`);
  console.log(
    `  receiver failing     ${fmt(result.failing)} req/s   ${fmt(result.failing / result.none, 2)} x no drain`,
  );
  console.log(
    `  receiver delivering  ${fmt(result.delivering)} req/s   ${fmt(result.delivering / result.none, 2)} x no drain`,
  );
  console.log(
    `  catch-up             ${fmt(result.catchUpRecordsPerSecond)} records/s (${fmt(result.records)} records from the beginning)`,
  );
}
