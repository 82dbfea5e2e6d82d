import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { auditTrailProjection } from '../projections/audit-trail.projection.js';
import { AuditExporter } from '../src/audit/export/audit-exporter.js';
import { verifyExportFile } from '../src/audit/export/export-verifier.js';
import { EntryResolver } from '../src/audit/trail/entry-resolver.js';
import { PersonalData } from '../src/privacy/personal-data.js';
import { SubjectKeyVault } from '../src/privacy/subject-key-vault.js';
import { systemClock } from '../src/common/clock.js';
import { SecretBox } from '../src/secrets/secret-box.js';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { anonymousContext } from '../src/kernel/request-context.js';
import { AuditSealer } from '../src/audit/audit-sealer.js';
import { AuditSigningKey } from '../src/audit/audit-signing-key.js';
import { AuditVerification } from '../src/audit/audit-verification.js';
import { AuditMarks } from '../src/audit/mark/audit-marks.js';
import { loadConfig } from '../src/config/app-config.js';
import { systemMetadata } from '../src/eventstore/event-metadata.js';
import { SqliteEventStore } from '../src/eventstore/sqlite/sqlite-event-store.js';
import { SqliteReadStore } from '../src/readstore/sqlite/sqlite-read-store.js';
import { EventWriter } from '../src/storage/event-writer.js';

export interface AuditBenchResult {
  exportSeconds: number;
  exportBytes: number;
  offlineSeconds: number;
  offlineOk: boolean;
  readSeconds: number;
  rangeSeconds: number;
  rangeOk: boolean;
  events: number;
  appendSeconds: number;
  sealSeconds: number;
  verifySeconds: number;
  verifyEventsPerSecond: number;
  ok: boolean;
}

/** Appends `count` realistic events, seals one checkpoint over them, then verifies the trail. */
export async function benchAuditVerify(count: number): Promise<AuditBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-bench-audit-'));
  const events = new SqliteEventStore(join(dir, 'events.sqlite'));
  const reads = new SqliteReadStore(join(dir, 'read-models.sqlite'));
  const runner = new ProjectionRunner(events, reads, []);
  await runner.start();
  const defaults = loadConfig({});
  const config = {
    ...defaults,
    dataDir: dir,
    audit: { ...defaults.audit, sealEveryEvents: 0, sealSeconds: 0, verifySeconds: 0 },
  };
  const key = AuditSigningKey.load(dir, undefined);
  const box = new SecretBox(randomBytes(32));
  const primary = new SqliteReadStore(join(dir, 'primary.sqlite'), { durable: true });
  const vault = await SubjectKeyVault.open(primary, box);
  const personal = new PersonalData(vault, systemClock, box);
  const writer = new EventWriter(events, runner, personal);
  const marks = new AuditMarks(events, config, key, writer);
  const sealer = new AuditSealer(events, reads, key, config, writer, marks);
  await sealer.onApplicationBootstrap();
  const verification = new AuditVerification(events, reads, key, marks, reads);
  const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;
  try {
    let t = process.hrtime.bigint();
    for (let i = 0; i < count; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({
        type: 'DeploymentStepFinished',
        schemaVersion: 1,
        data: { deploymentId: `d-${(i + j) % 5000}`, step: 'pull', ok: true, detail: null },
        metadata: systemMetadata({ requestId: `r-${i + j}`, correlationId: 'bench' }),
      }));
      await events.append(`bench-${i % 97}`, batch, 'any');
    }
    const appendSeconds = seconds(t);
    t = process.hrtime.bigint();
    await sealer.seal({ ...anonymousContext('bench', 'bench', null), authMethod: 'system' });
    const sealSeconds = seconds(t);
    t = process.hrtime.bigint();
    const report = await verification.verify();
    const verifySeconds = seconds(t);
    // Baseline, same run: only reading every event back, no hashing.
    t = process.hrtime.bigint();
    for (let from = 1n; ;) {
      const batch = await events.readAll(from, 1000);
      if (batch.length === 0) break;
      from = batch[batch.length - 1].position + 1n;
    }
    const readSeconds = seconds(t);
    // A range after the checkpoint (here: appended after sealing) starts from its signed hash.
    for (let i = 0; i < 1000; i += 100) {
      const batch = Array.from({ length: 100 }, (_, j) => ({
        type: 'DeploymentStepFinished',
        schemaVersion: 1,
        data: { deploymentId: `d-${j}`, step: 'pull', ok: true, detail: null },
        metadata: systemMetadata({ requestId: `tail-${i + j}`, correlationId: 'bench' }),
      }));
      await events.append('bench-tail', batch, 'any');
    }
    // Export everything (the stream the API sends) and verify the file offline.
    await reads.ensureCollection(auditTrailProjection.collections[0]);
    await sealer.seal({ ...anonymousContext('bench', 'bench', null), authMethod: 'system' });
    const exporter = new AuditExporter(events, key, new EntryResolver(reads, personal));
    const file = join(dir, 'export.ndjson');
    t = process.hrtime.bigint();
    const out = createWriteStream(file);
    for await (const chunk of exporter.chunks('ndjson', {})) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
    await new Promise<void>((resolve, reject) =>
      out.end((e?: Error | null) => (e ? reject(e) : resolve())),
    );
    const exportSeconds = seconds(t);
    t = process.hrtime.bigint();
    const offline = await verifyExportFile(file, key.publicKeyPem);
    const offlineSeconds = seconds(t);
    const exportBytes = statSync(file).size;
    const head = Number(await events.headPosition());
    t = process.hrtime.bigint();
    const tail = await verification.verify({ fromPosition: head - 999, toPosition: head });
    const rangeSeconds = seconds(t);
    return {
      exportSeconds,
      exportBytes,
      offlineSeconds,
      offlineOk: offline.ok,
      readSeconds,
      rangeSeconds,
      rangeOk: tail.ok && tail.eventsVerified >= 1000,
      events: report.eventsVerified,
      appendSeconds,
      sealSeconds,
      verifySeconds,
      verifyEventsPerSecond: report.eventsVerified / verifySeconds,
      ok: report.ok,
    };
  } finally {
    await sealer.onApplicationShutdown();
    await runner.stop();
    await events.close();
    await reads.close();
    await primary.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
