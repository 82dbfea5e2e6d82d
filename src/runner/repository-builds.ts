import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { composeText } from './compose-image.js';
import { TIMED_OUT } from './git-build-step.js';
import { ImageTransfer, imageIsOn } from './image-transfer.js';
import type { SshSession } from './ssh-session.js';

/** Writes stdin as the build's compose file, readable by its owner only. */
const WRITE_BUILD_FILE = 'umask 077 && cat > "$1/compose.build.json"';

/** What one deployment's builds of compose services need to know. */
export interface ServiceBuildRun {
  /** Where the commit was checked out (`dir/git/src`) and is built. */
  built: SshSession;
  /** The deployment's server, which runs the images. */
  target: SshSession;
  dir: string;
  project: string;
  /** The document the build runs: every builder tagged with its image. */
  document: object;
  /** Service → image, for the services that build. */
  images: ReadonlyMap<string, string>;
  /** Pushed to their repository from the build server, rather than copied through here. */
  push: boolean;
  signal: AbortSignal;
  log: (text: string) => void;
}

/**
 * Builds the services of a repository's compose file that build their image, from the commit's
 * checkout, with the server's Compose (so `target`, `args`, `dockerfile_inline`, additional
 * contexts and the rest mean what they mean in Compose), under the build's time limit. An image
 * the server has already (a rollback, a retry) is not built again. Built on a build server, the
 * images then reach the deployment's server as the commit's own image does. The checkout and the
 * build's compose file (which holds the deployment's values) are removed whatever the outcome.
 */
@Injectable()
export class RepositoryBuilds {
  constructor(
    private readonly transfer: ImageTransfer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(run: ServiceBuildRun): Promise<void> {
    const { built, dir, signal, log } = run;
    try {
      const missing = await this.missing(built, run.images, signal);
      for (const [service, image] of run.images)
        if (!missing.includes(service)) log(`${image} is on this server already: not built again`);
      if (missing.length) await this.build(run, missing);
    } finally {
      await built.exec(['rm', '-rf', '--', `${dir}/git`, `${dir}/compose.build.json`], {
        onLine: () => undefined,
      });
    }
    if (run.target === built || signal.aborted) return;
    for (const image of run.images.values()) {
      if (run.push) await this.pushed(built, image, signal, log);
      else await this.transfer.copy(built, run.target, image, signal, log);
    }
  }

  private async missing(
    session: SshSession,
    images: ReadonlyMap<string, string>,
    signal: AbortSignal,
  ): Promise<string[]> {
    const missing: string[] = [];
    for (const [service, image] of images) {
      if (!(await imageIsOn(session, image, signal))) missing.push(service);
    }
    return missing;
  }

  private async build(run: ServiceBuildRun, services: string[]): Promise<void> {
    const { built, dir, signal, log } = run;
    const written = await built.exec(['sh', '-c', WRITE_BUILD_FILE, 'slipway', dir], {
      stdin: composeText(run.document),
      onLine: () => undefined,
      signal,
    });
    if (written.code !== 0) throw new Error('the build’s compose file could not be written');
    const limit = this.config.runner.buildTimeoutSeconds;
    log(`building ${services.join(', ')} from the repository's compose file`);
    const result = await built.exec(
      [
        'timeout',
        '-k',
        '10',
        String(limit),
        'docker',
        'compose',
        '--project-name',
        run.project,
        // Contexts are read from the checkout's root; the repository's own .env is never read.
        '--project-directory',
        `${dir}/git/src`,
        '-f',
        `${dir}/compose.build.json`,
        '--env-file',
        '/dev/null',
        '--progress',
        'plain',
        'build',
        '--',
        ...services,
      ],
      { onLine: (_stream, text) => log(text), signal },
    );
    if (signal.aborted) return;
    if (result.code === TIMED_OUT)
      throw new Error(`the build ran over its time limit of ${limit} s`);
    if (result.code !== 0)
      throw new Error(`building ${services.join(', ')} failed (exit ${result.code ?? 'signal'})`);
  }

  private async pushed(
    session: SshSession,
    image: string,
    signal: AbortSignal,
    log: (text: string) => void,
  ): Promise<void> {
    const result = await session.exec(['docker', 'push', '--', image], {
      onLine: (_stream, text) => log(text),
      signal,
    });
    if (result.code !== 0 && !signal.aborted) throw new Error(`docker push of ${image} failed`);
  }
}
