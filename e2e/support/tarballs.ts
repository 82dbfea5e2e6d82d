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
  archive.on('data', (c) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const e of entries) {
    const type = e.type ?? 'file';
    const header = {
      name: e.name,
      type,
      linkname: e.linkname,
      mode: type === 'directory' ? 0o755 : 0o644,
    };
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error | null) => (error ? reject(error) : resolve());
      if (type === 'file') archive.entry(header, e.contents ?? '', done);
      else archive.entry(header, done);
    });
  }
  archive.finalize();
  await done;
  const tar = Buffer.concat(chunks);
  return gzip ? gzipSync(tar) : tar;
}
