import { chmodSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded stores' files and the files SQLite keeps beside each while it is open. */
const STORE_FILES = ['events.sqlite', 'read-models.sqlite', 'primary.sqlite'].flatMap((f) => [
  f,
  `${f}-wal`,
  `${f}-shm`,
]);

/**
 * Everything a Slipway process writes is for its own user only: the stores hold events with
 * personal data, the read models' credential digests and sealed secrets, the mail directory
 * reset links. A data directory made by someone else (a Docker image's `/data`, 0755) would
 * otherwise leave new files readable by every local user. Store files an earlier version left
 * readable are closed now (SQLite gives its `-wal`/`-shm` files the mode of the database). Returns
 * a warning when the directory itself lets others in.
 */
export function keepDataPrivate(dataDir: string): string | null {
  process.umask(0o077);
  for (const name of STORE_FILES) {
    const file = join(dataDir, name);
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
  if (!existsSync(dataDir)) return null;
  const mode = statSync(dataDir).mode & 0o777;
  return mode & 0o077
    ? `The data directory ${dataDir} is open to other users (mode ${mode.toString(8)}): its files are not, but their names are; chmod 700 it`
    : null;
}
