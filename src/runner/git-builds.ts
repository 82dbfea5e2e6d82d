import { PassThrough, Transform } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { DeploymentDoc } from '../../projections/deployments.projection.js';
import type { ServerDoc } from '../../projections/servers.projection.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeploymentLookup } from '../deployments/deployment-lookup.js';
import { gitSourceDecider } from '../deployments/git/git-source.decider.js';
import { serviceGitStream } from '../events/git-sources.events.js';
import { SECRET_BOX } from '../secrets/secret-box.provider.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { DeciderRunner } from '../storage/decider-runner.js';
import { gitBuildAccess, type GitBuildAccess } from './git-build-step.js';
import { deploymentDir } from './deployment-steps.js';
import { RepositoryCompose } from './repository-compose.js';
import { ServerSessions } from './server-sessions.js';
import type { SshSession } from './ssh-session.js';

/**
 * What a deployment of a commit needs beyond its own server: the source's credentials as they
 * are now, a session to the build server, and the built image copied from there.
 */
@Injectable()
export class GitBuilds {
  constructor(
    private readonly streams: DeciderRunner,
    private readonly lookup: DeploymentLookup,
    private readonly sessions: ServerSessions,
    private readonly repositoryCompose: RepositoryCompose,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The source's credentials for the build (never frozen in the deployment); null: no commit. */
  async access(deployment: DeploymentDoc): Promise<GitBuildAccess | null> {
    const git = deployment.snapshot.git;
    if (!git) return null;
    const { source } = await this.streams.load(
      serviceGitStream(git.sourceServiceId ?? deployment.serviceId),
      gitSourceDecider,
    );
    return gitBuildAccess(source, git, this.box);
  }

  /** A session to the deployment's build server, pinned like every server's; null: none. */
  async openBuilder(
    deployment: DeploymentDoc,
  ): Promise<{ session: SshSession; said: string } | null> {
    const id = deployment.snapshot.git?.buildServerId;
    if (!id || id === deployment.serverId) return null;
    const server = await this.lookup.server(id);
    if (server.status === 'decommissioned')
      throw new Error(`the build server ${server.name} is decommissioned`);
    if (!server.hostKeyApproved)
      throw new Error(`the host key of the build server ${server.name} is not approved`);
    return {
      session: await this.sessions.open(server),
      said: `connected to the build server ${server.sshUser}@${server.host}:${server.sshPort} (${server.hostKeyFingerprint})`,
    };
  }

  /**
   * The steps of a commit's deployment the control plane runs between its servers: the image
   * copied from the build server, and the repository's compose file judged and written.
   */
  async localStep(
    kind: 'transfer-image' | 'repository-compose',
    on: {
      deployment: DeploymentDoc;
      server: ServerDoc;
      session: SshSession;
      builder: SshSession | null;
      signal: AbortSignal;
      log: (text: string) => void;
    },
  ): Promise<void> {
    const { deployment, session, builder } = on;
    if (kind === 'transfer-image') {
      if (!builder) throw new Error('no session to the build server');
      return this.transfer(builder, session, deployment.imageRef, on.signal, on.log);
    }
    // The file is where the commit was built.
    const built = deployment.snapshot.git?.buildServerId && builder ? builder : session;
    const dir = deploymentDir(this.config.runner.remoteDir, deployment);
    const lines = await this.repositoryCompose.write(deployment, on.server, dir, built, session);
    lines.forEach(on.log);
  }

  /**
   * Copies `imageRef` from the build server to the deployment's server: `docker save` there
   * piped into `docker load` here through the control plane, at the pace the slower side takes
   * (never the whole image in memory). Nothing is copied when the server has the image. Either
   * side failing stops the other. Its log lines.
   */
  async transfer(
    builder: SshSession,
    target: SshSession,
    imageRef: string,
    signal: AbortSignal,
    log: (text: string) => void,
  ): Promise<void> {
    const present = await target.exec(
      ['docker', 'image', 'inspect', '--format', '{{.Id}}', '--', imageRef],
      { onLine: () => undefined, signal },
    );
    if (present.code === 0) {
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
