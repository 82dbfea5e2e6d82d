import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FaultLoadConfig, RequestRecord } from './fixtures/fault-load.js';
import { FaultCluster, type SlipwayProcess } from './support/fault-cluster.js';
import { missing, readModelDrift, refusals, settleProjections } from './support/fault-checks.js';
import { faultLines, faultTable, unexplainedHangs, type FaultRun } from './support/fault-report.js';
import { FINGERPRINT, PRIVATE_KEY, data } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { networkNamespacesAvailable } from './support/netns.js';
import { registerLoopbackServer } from './support/sshd.js';

const LEASE_MS = 10_000;
/** A command's deadline: the read-your-writes wait (20 s with replicas) and some margin. */
const DEADLINE_MS = 30_000;
const RECOVERY_LIMIT_MS = 90_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const unavailable = networkNamespacesAvailable();
if (unavailable) throw new Error(`${unavailable} (the fault suite runs replicas as hosts)`);

describe('faults across hosts: PostgreSQL, two API replicas and a runner worker, each a host', () => {
  let cluster: FaultCluster;
  let cookie: string;
  let load: ChildProcess;
  const outDir = mkdtempSync(join(tmpdir(), 'slipway-fault-load-'));
  const faults: FaultRun[] = [];
  let records: RequestRecord[] = [];

  beforeAll(async () => {
    cluster = await FaultCluster.start();
    const [api1] = cluster.apis;
    cookie = (await signUp(api1.url, 'owner@example.com')).cookie;
    const auth = cookieAuth(cookie);
    const serverId = await registerLoopbackServer(api1.url, auth, cluster.sshd, 'target');
    const serviceIds: string[] = [];
    for (const name of ['web', 'api', 'jobs']) {
      const service = data<{ serviceId: string }>(
        await call(api1.url, 'POST', 'registerService', auth, {
          name,
          environment: 'production',
          serverId,
          imageRepository: 'ghcr.io/acme/api',
          compose: 'services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n',
          approvalRule: 'none',
        }),
      );
      serviceIds.push(service.serviceId);
    }
    const config: FaultLoadConfig = {
      targets: cluster.apis.map((a) => a.url),
      cookie,
      serviceIds,
      privateKey: PRIVATE_KEY,
      fingerprint: FINGERPRINT,
      workers: 8,
      pauseMs: 50,
      connectTimeoutMs: 3_000,
      deadlineMs: DEADLINE_MS,
      out: join(outDir, 'records.json'),
    };
    load = cluster.loadHost.spawn(
      process.execPath,
      [cluster.loadScript(), JSON.stringify(config)],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  }, 120_000);

  afterAll(async () => {
    if (load && load.exitCode === null) load.kill('SIGKILL');
    await cluster?.stop();
    rmSync(outDir, { recursive: true, force: true });
  });

  /** Every replica answers a read from the database and acknowledges a command again. */
  const everyReplicaServes = async () => {
    for (const api of cluster.apis) await cluster.waitUntilServing(api, RECOVERY_LIMIT_MS, cookie);
  };
  const run = async (
    name: string,
    inject: (fault: FaultRun) => Promise<void>,
    recovered: () => Promise<void> = everyReplicaServes,
  ) => {
    const fault: FaultRun = { name, startedAt: Date.now(), recoveredAt: 0, cutOff: [] };
    await inject(fault);
    await recovered();
    fault.recoveredAt = Date.now();
    faults.push(fault);
    // Steady load between faults, so each fault starts from a cluster that is whole.
    await pause(3_000);
  };
  const restartAfterKill = async (process: SlipwayProcess) => {
    await process.kill();
    process.start();
  };

  it('keeps every acknowledged command through five faults, applies and starts nothing twice', async () => {
    await pause(4_000);
    const [api1, api2] = cluster.apis;

    await run('kill -9 an API replica (restarted at once)', () => restartAfterKill(api1));

    await run('kill -9 the projections lease holder', async () => {
      const holders = await cluster.query<{ holder: string; n: string }>(
        `SELECT doc->>'holder' AS holder, count(*) AS n FROM rm_projection_leases
         WHERE (doc->>'expiresAt')::bigint > $1 GROUP BY 1 ORDER BY 2 DESC`,
        [Date.now()],
      );
      // The live process holding the most (a killed one's leases may not have expired yet).
      const live = [...cluster.apis, cluster.worker];
      const pids = holders.map((h) => Number(h.holder.split('/')[1]));
      const holder = pids.map((pid) => live.find((p) => p.pid === pid)).find(Boolean);
      expect(holder).toBeDefined();
      await restartAfterKill(holder!);
    });

    let orphan = '';
    await run(
      'kill -9 the runner worker mid-deployment',
      async () => {
        cluster.sshd.setMode('slow');
        // A deployment the worker is running: its pull now takes 20 s.
        for (let i = 0; i < 300 && !orphan; i++) {
          const running = await cluster.query<{ id: string }>(
            `SELECT id FROM rm_deployments WHERE doc->>'status' = 'running' LIMIT 1`,
          );
          orphan = running[0]?.id ?? '';
          if (!orphan) await pause(100);
        }
        expect(orphan).not.toBe('');
        await cluster.worker.kill();
        cluster.sshd.setMode('success');
        cluster.worker.start();
      },
      async () => {
        // Recovered once the dead runner's deployment is settled and the replicas serve.
        for (let i = 0; i < RECOVERY_LIMIT_MS / 200; i++) {
          const [row] = await cluster.query<{ status: string }>(
            `SELECT doc->>'status' AS status FROM rm_deployments WHERE id = $1`,
            [orphan],
          );
          if (row && row.status !== 'running') break;
          await pause(200);
        }
        await everyReplicaServes();
      },
    );

    await run('cut one replica off the network for 1.5 leases', async (fault) => {
      const from = Date.now();
      await api2.host.unplug();
      await pause(LEASE_MS * 1.5);
      await api2.host.plug();
      fault.cutOff.push({ address: api2.host.address, from, to: Date.now() });
    });

    await run('restart PostgreSQL (immediate shutdown)', () => cluster.postgres.restart());

    // The load stops; what it recorded comes back.
    const written = new Promise((resolve) => load.once('exit', resolve));
    load.kill('SIGTERM');
    await written;
    records = JSON.parse(readFileSync(join(outDir, 'records.json'), 'utf8')) as RequestRecord[];
    // The worker would go on running the queue; what it did so far is what is checked.
    await cluster.worker.kill();
    const head = await settleProjections(cluster);

    // Acknowledged writes lost: every id a 200 named is in the log and in the read models.
    const acknowledged = records.filter((r) => r.outcome === 'ok');
    expect(acknowledged.length).toBeGreaterThan(100);
    const lostIds = await missing(cluster, acknowledged);
    // Events applied twice (or skipped): the read models equal a rebuild from the log.
    const drift = await readModelDrift(cluster, head);
    // Deployments started twice.
    const startedTwice = await cluster.query<{ deployment: string; at: string }>(
      `SELECT data::jsonb->>'deploymentId' AS deployment, max(recorded_at) AS at
       FROM slipway_events WHERE type = 'DeploymentStarted' GROUP BY 1 HAVING count(*) > 1`,
    );
    const hangs = unexplainedHangs(records, faults);

    const lines = faultLines(records, faults);
    const inWindow = (at: number, f: FaultRun) => at >= f.startedAt && at <= f.recoveredAt;
    const lostPerFault = faults.map(
      (f) => acknowledged.filter((r) => lostIds.has(r.id!) && inWindow(r.startedAt, f)).length,
    );
    const twicePerFault = faults.map(
      (f) => startedTwice.filter((s) => inWindow(Date.parse(s.at), f)).length,
    );
    const table = faultTable(lines, {
      'acknowledged lost': lostPerFault,
      'started twice': twicePerFault,
    });
    const [verified] = [await call(api1.url, 'GET', 'verifyAuditTrail', cookieAuth(cookie), {})];
    process.stdout.write(
      `\n${table}\n\n${acknowledged.length} of ${records.length} commands acknowledged; ` +
        `read-model documents that differ from a rebuild from the log: ${drift.length}; ` +
        `hung with no cut to explain it: ${hangs.length}; refusals: ${JSON.stringify(refusals(records))}\n`,
    );

    // No process fell over by itself (an unhandled error while the database was away).
    expect([...cluster.apis, cluster.worker].flatMap((p) => p.crashes)).toEqual([]);
    expect([...lostIds]).toEqual([]);
    expect(drift).toEqual([]);
    expect(startedTwice).toEqual([]);
    expect(hangs).toEqual([]);
    expect(verified.status).toBe(200);
    expect(verified.body.result.data.json).toMatchObject({ ok: true });
    // The orphaned deployment was settled by the new runner, not run again.
    const [orphanRow] = await cluster.query<{ status: string }>(
      `SELECT doc->>'status' AS status FROM rm_deployments WHERE id = $1`,
      [orphan],
    );
    expect(orphanRow.status).toBe('failed');
  }, 600_000);
});
