import { Inject, Injectable } from '@nestjs/common';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { AppError, conflict } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { composeProject } from '../../deployments/compose-project.js';
import { ServerSessions } from '../server-sessions.js';
import type { SshSession } from '../ssh-session.js';
import {
  containerStats,
  containerStatuses,
  jsonObjects,
  type ContainerStats,
  type ContainerStatus,
} from './observation-parsers.js';

/** How long one status or stats command may take on the server. */
const COMMAND_TIMEOUT_MS = 20_000;
const MAX_OUTPUT_LINES = 2000;

export interface ServiceStatusReport {
  serviceId: string;
  project: string;
  containers: ContainerStatus[];
}

export interface ServiceStatsReport {
  serviceId: string;
  project: string;
  containers: ContainerStats[];
}

export interface LogFollow {
  tail: number;
  seconds: number;
  /** false: the last `tail` lines and no more. */
  follow: boolean;
  /** Resume: every line from this time on (RFC 3339) instead of the last `tail`. */
  since?: string | null;
  onLine(stream: 'stdout' | 'stderr', text: string): void;
  signal: AbortSignal;
}

/**
 * Live observation of a service's containers over SSH, with the server's pinned host key and
 * sealed key: `docker compose ps` + `docker inspect`, `docker stats --no-stream`, and
 * `docker compose logs -f`. Nothing is recorded: these read the server, they change nothing.
 */
@Injectable()
export class ServiceObserver {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly sessions: ServerSessions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async status(serviceId: string): Promise<ServiceStatusReport> {
    return this.withService(serviceId, async (session, project) => {
      const ps = jsonObjects(await this.run(session, psArgs(project)));
      const names = ps.map((c) => String(c.Name ?? '')).filter(Boolean);
      const inspected = names.length
        ? jsonObjects(await this.run(session, ['docker', 'inspect', '--', ...names]))
        : [];
      return { serviceId, project, containers: containerStatuses(ps, inspected) };
    });
  }

  async stats(serviceId: string): Promise<ServiceStatsReport> {
    return this.withService(serviceId, async (session, project) => {
      const ps = jsonObjects(await this.run(session, psArgs(project)));
      const names = ps
        .filter((c) => c.State === 'running')
        .map((c) => String(c.Name ?? ''))
        .filter(Boolean);
      const rows = names.length
        ? jsonObjects(
            await this.run(session, [
              'docker',
              'stats',
              '--no-stream',
              '--format',
              '{{json .}}',
              '--',
              ...names,
            ]),
          )
        : [];
      return { serviceId, project, containers: containerStats(rows) };
    });
  }

  /**
   * Follows the containers' output (`docker compose logs -f`) until the signal aborts or the
   * time limit passes; `timeout` on the server ends the command even if the connection hangs.
   */
  async followLogs(serviceId: string, follow: LogFollow): Promise<void> {
    await this.withService(serviceId, async (session, project) => {
      const limit = AbortSignal.any([follow.signal, AbortSignal.timeout(follow.seconds * 1000)]);
      await session.exec(
        [
          'timeout',
          String(follow.seconds + 1),
          'docker',
          'compose',
          '--project-name',
          project,
          'logs',
          ...(follow.follow ? ['--follow'] : []),
          '--no-color',
          '--timestamps',
          ...(follow.since ? ['--since', follow.since] : ['--tail', String(follow.tail)]),
        ],
        { onLine: follow.onLine, signal: limit },
      );
    });
  }

  /** Service and server or NOT_FOUND; CONFLICT while the server cannot be used. */
  async target(serviceId: string): Promise<{ service: ServiceDoc; server: ServerDoc }> {
    const service = await this.lookup.service(serviceId);
    const server = await this.lookup.server(service.serverId);
    if (this.config.serverCheckTimeoutSeconds === 0) {
      throw conflict('This process does not connect to servers (server checks are off)');
    }
    if (server.status !== 'ready') throw conflict("The server's host key is not approved yet");
    return { service, server };
  }

  private async withService<T>(
    serviceId: string,
    work: (session: SshSession, project: string) => Promise<T>,
  ): Promise<T> {
    const { service, server } = await this.target(serviceId);
    let session: SshSession;
    try {
      session = await this.sessions.open(server);
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', 'Could not connect to the server', {
        reason: 'server-unreachable',
      });
    }
    try {
      return await work(session, composeProject(service.name, service.environment));
    } finally {
      session.close();
    }
  }

  private async run(session: SshSession, args: string[]): Promise<string[]> {
    const stdout: string[] = [];
    const result = await session.exec(args, {
      onLine: (stream, text) => {
        if (stream === 'stdout' && stdout.length < MAX_OUTPUT_LINES) stdout.push(text);
      },
      signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
    });
    if (result.code !== 0) {
      throw new AppError('SERVICE_UNAVAILABLE', `${args[0]} ${args[1]} failed on the server`, {
        reason: 'command-failed',
      });
    }
    return stdout;
  }
}

function psArgs(project: string): string[] {
  return ['docker', 'compose', '--project-name', project, 'ps', '--all', '--format', 'json'];
}
