import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { AppError, badRequest } from '../../common/app-error.js';
import { UploadMeter } from './upload-meter.js';

/** Bounds on one build context, so checking it costs little whatever is sent. */
export const CONTEXT_LIMITS = {
  /** Entries (files and directories). */
  maxEntries: 10_000,
  /**
   * Bytes once gunzipped, against gzip bombs: a multiple of the compressed cap, at most 1 GiB.
   * Every byte counts (entries, tar's padding and end blocks, whatever follows them, every gzip
   * member), not the sizes the tar headers claim.
   */
  unpackedFactor: 8,
  maxUnpackedBytes: 1024 ** 3,
  /** Characters of an entry's path. */
  maxPathChars: 1024,
} as const;

export interface CheckedContext {
  sha256: string;
  bytes: number;
  entries: number;
}

const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The upload is over its limit of ${maxBytes} bytes`, {
    maxBytes,
  });

const unpackedTooLarge = (maxUnpackedBytes: number) =>
  new AppError('BAD_REQUEST', `The build context unpacks to more than ${maxUnpackedBytes} bytes`, {
    issues: [{ path: 'body', message: `more than ${maxUnpackedBytes} bytes unpacked` }],
    maxUnpackedBytes,
  });

/** Passes gunzip's output through, refusing it as soon as it passes `maxUnpacked` bytes. */
function unpackedMeter(maxUnpacked: number): Transform {
  let unpacked = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      unpacked += chunk.length;
      if (unpacked > maxUnpacked) return done(unpackedTooLarge(maxUnpacked));
      done(null, chunk);
    },
  });
}

/**
 * Why an entry may not be unpacked in a deployment's directory, or null: only regular files and
 * directories, a relative path without `..`, `.` only as its first segment, no control
 * characters or backslashes. Links of either kind are refused (a link inside the context is
 * where a later entry escapes through).
 */
export function entryProblem(header: Header): string | null {
  const { name, type } = header;
  if (type !== 'file' && type !== 'directory') return `${type ?? 'unknown'} entries are refused`;
  if (name.length === 0 || name.length > CONTEXT_LIMITS.maxPathChars) return 'path length';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(name)) return 'control characters or backslashes';
  if (name.startsWith('/')) return 'absolute path';
  const segments = name.replace(/\/$/, '').split('/');
  if (segments.some((s, i) => s === '..' || s === '' || (s === '.' && i > 0)))
    return 'path escapes the directory';
  return null;
}

/**
 * Streams an uploaded gzip tar into `file` while summing it, counting its bytes against
 * `maxBytes` (413 past it) and reading it entry by entry with tar-stream: nothing is unpacked
 * on the control plane. A refused entry is 400 with the entry's path (shortened); so is a
 * context whose gunzipped bytes pass the unpacked cap, refused as soon as they do.
 */
export async function receiveContext(
  body: Readable,
  file: string,
  maxBytes: number,
): Promise<CheckedContext> {
  const meter = new UploadMeter(maxBytes, () => tooLarge(maxBytes));
  const maxUnpacked = Math.min(
    CONTEXT_LIMITS.maxUnpackedBytes,
    maxBytes * CONTEXT_LIMITS.unpackedFactor,
  );
  let entries = 0;
  const tar = extract();
  tar.on('entry', (header, stream, next) => {
    // Destroying the parser ends the entry with the same error, which the pipeline reports.
    stream.on('error', () => undefined);
    entries += 1;
    const problem =
      entries > CONTEXT_LIMITS.maxEntries
        ? `more than ${CONTEXT_LIMITS.maxEntries} entries`
        : entryProblem(header);
    if (problem) {
      const path = header.name.slice(0, 200);
      tar.destroy(
        badRequest(`The build context has a refused entry: ${problem}`, [
          { path: `context:${path}`, message: problem },
        ]),
      );
      return;
    }
    stream.on('end', () => next());
    stream.resume();
  });
  const sink = createWriteStream(file, { mode: 0o600 });
  // Reported through `copy`'s write callbacks; a write after a refusal must not go unhandled.
  sink.on('error', () => undefined);
  const copy = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (sink.destroyed) return done(new Error('the upload was refused'));
      sink.write(chunk, (error) => (error ? done(error) : done(null, chunk)));
    },
    flush(done) {
      sink.end(done);
    },
  });
  // The request is piped, not part of the pipeline: a refusal must not destroy its socket
  // before the answer is written (the route drains what is left).
  body.on('error', (e) => meter.destroy(e));
  body.pipe(meter);
  try {
    await pipeline(meter, copy, createGunzip(), unpackedMeter(maxUnpacked), tar);
  } catch (error) {
    // Closed before the caller removes the file: a late open must not recreate it.
    sink.destroy();
    await finished(sink).catch(() => undefined);
    if (error instanceof AppError) throw error;
    throw badRequest('The build context must be a gzip-compressed tar', [
      {
        path: 'body',
        message: error instanceof Error ? error.message.slice(0, 200) : 'unreadable',
      },
    ]);
  }
  if (entries === 0)
    throw badRequest('The build context is empty', [{ path: 'body', message: 'no entries' }]);
  return { sha256: meter.sha256(), bytes: meter.bytes, entries };
}
