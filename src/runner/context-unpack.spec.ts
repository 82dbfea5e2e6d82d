import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { UNPACK_CONTEXT } from './context-unpack.js';

/** A ustar header block, written by hand: the test needs headers no tar writer would make. */
function header(name: string, type: string, size: number, link = ''): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0);
  block.write('0000644\0', 100);
  block.write('0000000\0', 108);
  block.write('0000000\0', 116);
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  block.write('00000000000\0', 136);
  block.write(type, 156);
  block.write(link, 157);
  block.write('ustar\x0000', 257, 'latin1');
  block.write('        ', 148);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

const padded = (data: Buffer) =>
  Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
const END = Buffer.alloc(1024);

/** Runs the step's script on a tarball in a fresh directory, as the runner does over SSH. */
async function unpack(tarball: Buffer): Promise<{ code: number; dir: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-unpack-'));
  const gz = gzipSync(tarball);
  writeFileSync(join(dir, 'context.tar.gz'), gz);
  const sha = createHash('sha256').update(gz).digest('hex');
  return new Promise((resolve) => {
    execFile('sh', ['-c', UNPACK_CONTEXT, 'slipway', dir, sha], (error, _out, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, dir, stderr }),
    );
  });
}

const links = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((entry) =>
    lstatSync(join(dir, entry)).isSymbolicLink(),
  );

describe('unpacking a build context on the server (GNU tar)', () => {
  it('unpacks files and directories', async () => {
    const body = Buffer.from('FROM scratch\n');
    const { code, dir } = await unpack(
      Buffer.concat([
        header('app/', '5', 0),
        header('app/Dockerfile', '0', body.length),
        padded(body),
        END,
      ]),
    );
    try {
      expect(code).toBe(0);
      expect(readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()).toEqual([
        'app',
        'app/Dockerfile',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a link that a global PAX header hid from the upload check', async () => {
    // `size=0` for every later entry, as GNU tar reads it: the 512 bytes that follow the header
    // of `a` (which says 512) are read as the header of a link `leak`. A reader that applies
    // global headers only beside a per-file one sees `a` and `b`, no link.
    const global = Buffer.from('10 size=0\n');
    const { code, dir, stderr } = await unpack(
      Buffer.concat([
        header('pax_global_header', 'g', global.length),
        padded(global),
        header('a', '0', 512),
        header('leak', '2', 0, '/etc'),
        header('b', '0', 0),
        END,
      ]),
    );
    try {
      expect(code).not.toBe(0);
      expect(stderr).toContain('a link or a special file: refused');
      expect(links(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a tarball whose checksum is not the one recorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'slipway-unpack-'));
    writeFileSync(join(dir, 'context.tar.gz'), gzipSync(END));
    const code = await new Promise<number>((resolve) =>
      execFile('sh', ['-c', UNPACK_CONTEXT, 'slipway', dir, '0'.repeat(64)], (error) =>
        resolve(error ? 1 : 0),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(1);
  });
});
