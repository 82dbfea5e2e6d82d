import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { CheckServer } from '../../deployments/commands/check-server.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { ServerSessions } from '../server-sessions.js';
import type { SshSession } from '../ssh-session.js';
import { commandOutput, scriptWithRemoteDir } from './command-output.js';
import { diskFreeKib } from './observation-parsers.js';

const COMMAND_TIMEOUT_MS = 15_000;

/** `df` of the runner's remote directory, or of `/` while that does not exist yet. */
const DISK_FREE = 'df -Pk "$1" 2>/dev/null || df -Pk /';

export interface ServerDiagnostics {
  docker: string | null;
  compose: string | null;
  diskFreeKib: number | null;
}

/**
 * `checkServer` (connect with the pinned host key, recorded as ServerConnectionChecked) and,
 * once logged in, what the runner needs there: Docker and Compose versions and free disk.
 */
@Injectable()
export class ServerDiagnosis {
  constructor(
    private readonly commands: CommandBus,
    private readonly lookup: DeploymentLookup,
    private readonly sessions: ServerSessions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(serverId: string, ctx: RequestContext) {
    const connection = await this.commands.execute(new CheckServer({ serverId }, ctx));
    let diagnostics: ServerDiagnostics | null = null;
    if (connection.ok && connection.mode === 'login') {
      diagnostics = await this.diagnose(serverId).catch(() => null);
    }
    return {
      ...connection,
      ...(diagnostics ?? { docker: null, compose: null, diskFreeKib: null }),
    };
  }

  private async diagnose(serverId: string): Promise<ServerDiagnostics> {
    const session = await this.sessions.open(await this.lookup.server(serverId));
    try {
      const first = async (args: string[]) => (await output(session, args))[0]?.trim() || null;
      const docker = await first(['docker', 'version', '--format', '{{.Server.Version}}']);
      const compose = await first(['docker', 'compose', 'version', '--short']);
      const df = await output(
        session,
        scriptWithRemoteDir(DISK_FREE, this.config.runner.remoteDir),
      );
      return { docker, compose, diskFreeKib: diskFreeKib(df) };
    } finally {
      session.close();
    }
  }
}

async function output(session: SshSession, args: string[]): Promise<string[]> {
  const { code, stdout } = await commandOutput(session, args, {
    timeoutMs: COMMAND_TIMEOUT_MS,
    maxLines: 100,
    maxLineChars: 500,
  });
  return code === 0 ? stdout : [];
}
