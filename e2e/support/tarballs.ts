import { gzipSync } from 'node:zlib';
import { pack, type Header } from 'tar-stream';

export interface TarEntry {
  name: string;
  contents?: string;
  type?: Header['type'];
  linkname?: string;
}

/** A tar (gzip-compressed unless `gzip: false`) of the given entries, built with tar-stream. */
export async function tarball(entries: TarEntry[], gzip = true): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const e of entries) {
    const type = e.type ?? 'file';
    await new Promise<void>((resolve, reject) =>
      archive.entry(
        { name: e.name, type, linkname: e.linkname, mode: type === 'directory' ? 0o755 : 0o644 },
        type === 'file' ? (e.contents ?? '') : undefined,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }
  archive.finalize();
  await done;
  const tar = Buffer.concat(chunks);
  return gzip ? gzipSync(tar) : tar;
}
