import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { BackupDoc } from '../../../projections/backups.projection.js';

/** At most this many bytes are sent (the artifact is read into memory to be verified and sent). */
export const RESTORE_MAX_BYTES = 512 * 1024 * 1024;

export type ArtifactCheck =
  | { ok: true; artifact: Buffer }
  | { ok: false; reason: 'artifact-unavailable'; detail: string }
  | { ok: false; reason: 'checksum-mismatch'; detail: string; expected: string; actual: string };

/**
 * A backup's artifact as Slipway holds it, checked against its recorded SHA-256 before anything
 * is sent anywhere. Only files under `<data dir>/backups/<service>/` (what triggerBackup wrote)
 * and no larger than RESTORE_MAX_BYTES.
 */
export async function verifiedArtifact(backup: BackupDoc, dataDir: string): Promise<ArtifactCheck> {
  const dir = resolve(join(dataDir, 'backups', backup.serviceId));
  const location = resolve(backup.location);
  let artifact: Buffer | null = null;
  if (location.startsWith(dir + sep)) {
    try {
      if ((await stat(location)).size <= RESTORE_MAX_BYTES) artifact = await readFile(location);
    } catch {
      artifact = null;
    }
  }
  if (!artifact) {
    return {
      ok: false,
      reason: 'artifact-unavailable',
      detail: 'Slipway does not hold this backup’s artifact',
    };
  }
  const actual = `sha256:${createHash('sha256').update(artifact).digest('hex')}`;
  if (actual !== backup.checksum) {
    return {
      ok: false,
      reason: 'checksum-mismatch',
      detail: `expected ${backup.checksum}, found ${actual}`,
      expected: backup.checksum,
      actual,
    };
  }
  return { ok: true, artifact };
}
