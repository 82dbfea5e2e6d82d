import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { AppError, conflict } from '../../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { UploadMeter } from '../../deployments/uploads/upload-meter.js';
import {
  GENERIC_FAILURES,
  seesConnectionDetails,
} from '../../deployments/reach/connection-failures.js';
import { ServerImagesChanged, serverImagesStream } from '../../events/uploads.events.js';
import { EventWriter } from '../../storage/event-writer.js';
import { ServerSessions } from '../server-sessions.js';
import type { SshSession } from '../ssh-session.js';

export type ImageOperation = 'pull' | 'remove' | 'prune' | 'load';

/** What a pull, remove or prune answers: the last lines the command printed. */
export interface ImageChange {
  serverId: string;
  operation: ImageOperation;
  reference: string | null;
  output: string[];
}

/** A command's exit code, the first lines of its stdout and the last of its stderr. */
export interface CommandOutput {
  code: number | null;
  stdout: string[];
  stderr: string[];
}

/** Lines of a command's output an answer carries (the last ones). */
const OUTPUT_LINES = 50;
/** Lines of stdout kept: the images a listing returns at most. */
export const MAX_IMAGES = 1000;

const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The image tarball is over its limit of ${maxBytes} bytes`, {
    maxBytes,
  });

/**
 * Docker image commands on a registered server, over SSH (pinned host key, sealed key), for the
 * image procedures, and `docker load` of a tarball streamed from the request to the server's
 * stdin, never stored on the control plane. Every change is recorded as ServerImagesChanged,
 * failed or not.
 */
@Injectable()
export class ImageOperations {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly sessions: ServerSessions,
    private readonly writer: EventWriter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Runs one command on a server whose host key is approved; the bounded output. */
  async run(serverId: string, args: string[], ctx: RequestContext): Promise<CommandOutput> {
    return this.exec(await this.ready(serverId), ctx, args);
  }

  /**
   * Streams `body` (a `docker save` tarball) to `docker load` on the server, counting it against
   * the cap (413 past it: the remote load is stopped) and summing it on the way.
   */
  async load(serverId: string, body: Readable, declaredLength: number | null, ctx: RequestContext) {
    const maxBytes = this.config.uploads.imageMaxBytes;
    if (declaredLength !== null && declaredLength > maxBytes) throw tooLarge(maxBytes);
    const server = await this.ready(serverId);
    const meter = new UploadMeter(maxBytes, () => tooLarge(maxBytes));
    body.on('error', (e) => meter.destroy(e));
    const input = body.pipe(meter);
    let outcome: CommandOutput;
    try {
      outcome = await this.exec(server, ctx, ['docker', 'load'], input);
    } catch (error) {
      const failure = error instanceof Error ? error.message : String(error);
      await this.record(server.id, 'load', null, false, failure, ctx, null, meter.bytes);
      throw error;
    }
    const sha256 = meter.sha256();
    const bytes = meter.bytes;
    const ok = outcome.code === 0;
    const failure = ok ? null : `docker load exited with ${outcome.code}`;
    await this.record(server.id, 'load', null, ok, failure, ctx, sha256, bytes);
    if (!ok) throw conflict('docker load failed on the server', { output: outcome.stderr });
    const loaded = outcome.stdout
      .map((l) => /^Loaded image(?: ID)?: (.+)$/.exec(l.trim())?.[1])
      .filter((l): l is string => !!l);
    return { serverId, loaded, sha256, bytes };
  }

  /** Runs a command that changes the server's images, records it, and answers its output. */
  async change(
    serverId: string,
    operation: ImageOperation,
    reference: string | null,
    args: string[],
    ctx: RequestContext,
  ): Promise<ImageChange> {
    const server = await this.ready(serverId);
    const { code, stdout, stderr } = await this.exec(server, ctx, args);
    const ok = code === 0;
    const failure = ok ? null : `${args.slice(0, 3).join(' ')} exited with ${code}`;
    await this.record(server.id, operation, reference, ok, failure, ctx, null, null);
    if (!ok) throw conflict(`${operation} failed on the server`, { output: stderr });
    return { serverId, operation, reference, output: stdout };
  }

  private async ready(serverId: string): Promise<ServerDoc> {
    const server = await this.lookup.server(serverId);
    if (!server.hostKeyApproved)
      throw conflict(`Approve the host key of server ${server.name} first`);
    return server;
  }

  private async exec(
    server: ServerDoc,
    ctx: RequestContext,
    args: string[],
    input?: Readable,
  ): Promise<CommandOutput> {
    const session = await this.connect(server, ctx);
    const stdout: string[] = [];
    const stderr: string[] = [];
    // Bounded: the first lines of stdout (a listing), the last lines of stderr (the error).
    const keep = (lines: string[], text: string) => {
      if (lines === stdout && lines.length >= MAX_IMAGES) return;
      lines.push(text.slice(0, 2000));
      if (lines === stderr && lines.length > OUTPUT_LINES) lines.shift();
    };
    try {
      const result = await session.exec(args, {
        stdinStream: input,
        onLine: (stream, text) => keep(stream === 'stdout' ? stdout : stderr, text),
      });
      return { code: result.code, stdout, stderr };
    } finally {
      session.close();
    }
  }

  private async record(
    serverId: string,
    operation: ImageOperation,
    reference: string | null,
    ok: boolean,
    failure: string | null,
    ctx: RequestContext,
    sha256: string | null,
    bytes: number | null,
  ): Promise<void> {
    await this.writer.append(
      serverImagesStream(serverId),
      [ServerImagesChanged({ serverId, operation, reference, ok, failure, sha256, bytes })],
      'any',
      ctx,
    );
  }

  /** One answer for every connection failure, unless the caller is an owner or admin. */
  private async connect(server: ServerDoc, ctx: RequestContext): Promise<SshSession> {
    try {
      return await this.sessions.open(server);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw conflict(
        seesConnectionDetails(ctx)
          ? `Could not connect to the server: ${detail}`
          : `The image operation ${GENERIC_FAILURES.connect}`,
      );
    }
  }
}
