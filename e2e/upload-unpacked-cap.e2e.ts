import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { cookieAuth, signUp } from './support/identity.js';
import { tarball } from './support/tarballs.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const CAP = 64 * 1024;
/** What the service allows a context of `CAP` compressed bytes to unpack to. */
const MAX_UNPACKED = 8 * CAP;
const MIB = 1024 * 1024;

/** `parts` gzipped at level 9 as one member, streamed (the zeros are never held at once). */
async function gzipParts(parts: Iterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(parts),
    createGzip({ level: 9 }),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(out);
}

function* zeros(bytes: number): Generator<Buffer> {
  const block = Buffer.alloc(MIB);
  for (let left = bytes; left > 0; left -= MIB) yield left >= MIB ? block : block.subarray(0, left);
}

/**
 * Gzip bombs made of a valid small tar and zero blocks after its end marker: the tar headers
 * claim a few bytes, gunzip produces many MiB. Each must be refused as soon as the unpacked cap is
 * passed, leave no file behind and leave the upload open for a good context.
 */
describe('an uploaded build context is held to its unpacked cap, counted in gunzipped bytes', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let tar: Buffer;

  /** The files (kept or partial) of one upload on disk. */
  const filesOf = (uploadId: string) =>
    readdirSync(join(t.config.dataDir, 'uploads')).filter((name) => name.startsWith(uploadId));
  const openUpload = async () =>
    (await request(t.url).post('/api/v1/deploy/uploads').set(owner).send({})).body as {
      uploadId: string;
      uploadUrl: string;
    };
  const put = (url: string, body: Buffer) =>
    request(t.url).put(url).set(owner).set('Content-Type', 'application/gzip').send(body);

  beforeAll(async () => {
    t = await startTestApp({
      notes: false,
      config: { uploads: { contextMaxBytes: CAP, imageMaxBytes: CAP } },
    });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    tar = await tarball([{ name: 'Dockerfile', contents: 'FROM scratch\n' }], false);
  });
  afterAll(async () => {
    await t?.close();
  });

  const refusesBomb = async (bomb: Buffer) => {
    expect(bomb.length).toBeLessThan(CAP);
    const { uploadId, uploadUrl } = await openUpload();
    const res = await put(uploadUrl, bomb);
    expect([res.status, res.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
    expect(res.body.error.data).toMatchObject({
      maxUnpackedBytes: MAX_UNPACKED,
      issues: [{ path: 'body', message: `more than ${MAX_UNPACKED} bytes unpacked` }],
    });
    expect(filesOf(uploadId)).toEqual([]);
    // The refusal recorded nothing: the upload still takes a good context.
    const good = await put(uploadUrl, gzipSync(tar));
    expect(good.status).toBe(200);
  };

  it('refuses a small tar followed by 32 MiB of zero blocks in one gzip member', async () => {
    await refusesBomb(await gzipParts([tar, ...zeros(32 * MIB)]));
  });

  it('refuses the same zeros spread over many concatenated gzip members', async () => {
    const member = await gzipParts(zeros(MIB));
    await refusesBomb(Buffer.concat([gzipSync(tar), ...Array.from({ length: 32 }, () => member)]));
  });

  it('still takes a context whose padding stays under the cap', async () => {
    const { uploadId, uploadUrl } = await openUpload();
    const res = await put(uploadUrl, await gzipParts([tar, ...zeros(MAX_UNPACKED - tar.length)]));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ entries: 1 });
    expect(filesOf(uploadId)).toEqual([`${uploadId}.tar.gz`]);
  });
});
