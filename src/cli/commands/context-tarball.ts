import { createReadStream, lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import { CliError } from '../cli-error.js';

/** As the server's limit on a build context's entries. */
const MAX_ENTRIES = 10_000;

interface Entry {
  path: string;
  name: string;
  kind: 'file' | 'directory';
  size: number;
}

/**
 * The files and directories under `dir`, sorted, within the server's entry limit. A link of
 * any kind is an error naming it: the server refuses links, and following one could send a file
 * from outside the directory.
 */
export function contextEntries(dir: string): Entry[] {
  const entries: Entry[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const stat = lstatSync(full);
      const rel = relative(dir, full).split(sep).join('/');
      if (stat.isSymbolicLink())
        throw new CliError('BAD_CONTEXT', `${rel} is a symbolic link: links are refused`);
      if (!stat.isFile() && !stat.isDirectory())
        throw new CliError('BAD_CONTEXT', `${rel} is neither a file nor a directory`);
      if (entries.length >= MAX_ENTRIES)
        throw new CliError('BAD_CONTEXT', `more than ${MAX_ENTRIES} entries in ${dir}`);
      if (stat.isDirectory()) {
        entries.push({ path: full, name: `${rel}/`, kind: 'directory', size: 0 });
        walk(full);
      } else entries.push({ path: full, name: rel, kind: 'file', size: stat.size });
    }
  };
  walk(dir);
  return entries;
}

/** A gzip tar of `entries`, produced as it is read (files streamed, not held in memory). */
export function contextTarball(entries: Entry[]): Readable {
  const archive = pack();
  const gzip = createGzip();
  archive.on('error', (e) => gzip.destroy(e));
  const write = async () => {
    for (const e of entries) {
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error | null) => (error ? reject(error) : resolve());
        if (e.kind === 'directory') {
          archive.entry({ name: e.name, type: 'directory', mode: 0o755 }, done);
          return;
        }
        const sink = archive.entry({ name: e.name, size: e.size, mode: 0o644 }, done);
        createReadStream(e.path)
          .on('error', reject)
          .pipe(sink as unknown as NodeJS.WritableStream);
      });
    }
    archive.finalize();
  };
  write().catch((error: unknown) => gzip.destroy(error as Error));
  return (archive as unknown as Readable).pipe(gzip);
}
