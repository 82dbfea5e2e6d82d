import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from '@jest/globals';
import { UploadMeter } from './upload-meter.js';

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

describe('UploadMeter', () => {
  it('passes the bytes on, counting and summing them', async () => {
    const meter = new UploadMeter(10, () => new Error('too large'));
    await pipeline(Readable.from([Buffer.from('abc'), Buffer.from('defg')]), meter, sink());
    expect(meter.bytes).toBe(7);
    expect(meter.sha256()).toBe(createHash('sha256').update('abcdefg').digest('hex'));
  });

  it('fails the stream with its error once more than the limit has come', async () => {
    const meter = new UploadMeter(5, () => new Error('too large'));
    await expect(
      pipeline(Readable.from([Buffer.from('abc'), Buffer.from('defg')]), meter, sink()),
    ).rejects.toThrow('too large');
    expect(meter.bytes).toBe(7);
  });
});
