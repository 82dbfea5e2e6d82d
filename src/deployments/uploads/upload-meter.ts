import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes an upload's bytes on, counting them and summing them (SHA-256); fails the stream with
 * `tooLarge()` as soon as more than `maxBytes` have come.
 */
export class UploadMeter extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');

  constructor(
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(this.tooLarge());
    this.hash.update(chunk);
    done(null, chunk);
  }

  /** The hex SHA-256 of what passed; once, after the upload ended. */
  sha256(): string {
    return this.hash.digest('hex');
  }
}
