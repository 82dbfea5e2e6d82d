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
import { ImageTransfer, imageIsOn } from './image-transfer.js';
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
    private readonly transfer: ImageTransfer,
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
      if (
        deployment.snapshot.git?.composeFile &&
        !(await imageIsOn(builder, deployment.imageRef))
      ) {
        on.log(`${deployment.imageRef} was not built (no Dockerfile): nothing to copy`);
        return;
      }
      return this.transfer.copy(builder, session, deployment.imageRef, on.signal, on.log);
    }
    // The file is where the commit was built.
    const built = deployment.snapshot.git?.buildServerId && builder ? builder : session;
    const dir = deploymentDir(this.config.runner.remoteDir, deployment);
    await this.repositoryCompose.write(deployment, on.server, dir, {
      built,
      target: session,
      signal: on.signal,
      log: on.log,
    });
  }
}
