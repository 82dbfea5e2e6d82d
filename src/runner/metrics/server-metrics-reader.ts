import { Inject, Injectable } from '@nestjs/common';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { commandOutput, scriptWithRemoteDir } from '../observe/command-output.js';
import { jsonObjects } from '../observe/observation-parsers.js';
import { ServerSessions } from '../server-sessions.js';
import type { SshSession } from '../ssh-session.js';
import {
  containerReadings,
  SERVER_SCRIPT,
  serverReading,
  type ContainerReading,
  type ServerReading,
} from './metric-readings.js';

const COMMAND_TIMEOUT_MS = 30_000;
/** Enough for `docker inspect` of a few hundred containers. */
const MAX_LINES = 200_000;

const COMPOSE_CONTAINERS = 'docker ps -q --filter label=com.docker.compose.project';
const INSPECT = `ids=$(${COMPOSE_CONTAINERS} --all); [ -z "$ids" ] || docker inspect $ids`;
const STATS = `ids=$(${COMPOSE_CONTAINERS}); [ -z "$ids" ] || docker stats --no-stream --format '{{json .}}' $ids`;

export interface ServerMetricsReading {
  server: ServerReading;
  containers: ContainerReading[];
}

/**
 * Reads one server's metrics and its compose containers' over one SSH session (the pinned host
 * key, the sealed key): three commands, each bounded in time and output. Fails when the server
 * cannot be reached or a command fails: nothing is then known of it.
 */
@Injectable()
export class ServerMetricsReader {
  constructor(
    private readonly sessions: ServerSessions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async read(server: ServerDoc): Promise<ServerMetricsReading> {
    const session = await this.sessions.open(server);
    try {
      const host = await output(
        session,
        scriptWithRemoteDir(SERVER_SCRIPT, this.config.runner.remoteDir),
      );
      const inspected = jsonObjects(await output(session, ['sh', '-c', INSPECT]));
      const stats = jsonObjects(await output(session, ['sh', '-c', STATS]));
      return { server: serverReading(host), containers: containerReadings(inspected, stats) };
    } finally {
      session.close();
    }
  }
}

async function output(session: SshSession, args: string[]): Promise<string[]> {
  const { code, stdout } = await commandOutput(session, args, {
    timeoutMs: COMMAND_TIMEOUT_MS,
    maxLines: MAX_LINES,
  });
  if (code !== 0) throw new Error(`a metrics command exited with ${code}`);
  return stdout;
}
