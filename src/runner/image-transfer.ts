import { PassThrough, Transform } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { SshSession } from './ssh-session.js';

/** Images built on a build server, brought to the server that runs them. */
@Injectable()
export class ImageTransfer {
  /**
   * Copies `imageRef` from the build server to the deployment's server: `docker save` there
   * piped into `docker load` here through the control plane, at the pace the slower side takes
   * (never the whole image in memory). Nothing is copied when the server has the image. Either
   * side failing stops the other. Its log lines.
   */
  async copy(
    builder: SshSession,
    target: SshSession,
    imageRef: string,
    signal: AbortSignal,
    log: (text: string) => void,
  ): Promise<void> {
    if (await imageIsOn(target, imageRef, signal)) {
      log(`${imageRef} is on this server already: not copied`);
      return;
    }
    const both = new AbortController();
    const stop = () => both.abort();
    signal.addEventListener('abort', stop, { once: true });
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    const pipe = new PassThrough();
    pipe.pipe(counted);
    const failed = (side: string) => (code: number | null) => {
      if (code === 0) return;
      both.abort();
      throw new Error(`docker ${side} exited with ${code ?? 'a signal'}`);
    };
    try {
      await Promise.all([
        builder
          .exec(['docker', 'save', '--', imageRef], {
            stdoutStream: pipe,
            onLine: (_stream, text) => log(`save: ${text}`),
            signal: both.signal,
          })
          .then((r) => failed('save')(r.code)),
        target
          .exec(['docker', 'load'], {
            stdinStream: counted,
            onLine: (_stream, text) => log(text),
            signal: both.signal,
          })
          .then((r) => failed('load')(r.code)),
      ]).catch((error: unknown) => {
        both.abort();
        pipe.destroy();
        throw error;
      });
      log(`copied ${imageRef} from the build server (${bytes} bytes)`);
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }
}

/** Whether the server has `imageRef`. */
export async function imageIsOn(
  session: SshSession,
  imageRef: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const found = await session.exec(
    ['docker', 'image', 'inspect', '--format', '{{.Id}}', '--', imageRef],
    { onLine: () => undefined, signal },
  );
  return found.code === 0;
}
