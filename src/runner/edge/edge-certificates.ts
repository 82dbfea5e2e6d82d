import { Inject, Injectable } from '@nestjs/common';
import {
  edgeCertificateId,
  type EdgeCertificateDoc,
} from '../../../projections/edge-certificates.projection.js';
import { conflict } from '../../common/app-error.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { serverEdgeStream } from '../../events/edge.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { EventWriter } from '../../storage/event-writer.js';
import { ServerSessions } from '../server-sessions.js';
import { EDGE_STORAGE } from './caddy-config.js';
import { certificateChanges } from './certificate-changes.js';
import { LOG_MARK, READING_MARK, readCertificates } from './certificate-readings.js';
import { EDGE_CONTAINER } from './edge-container.js';
import { EdgeProxy } from './edge-proxy.js';

/**
 * Prints each certificate file in the proxy's storage (a mark with its path, then the PEM), then
 * the proxy's recent log lines about certificate identifiers. Argument: the container's name.
 */
const CERTIFICATES_SCRIPT = `set -u
docker exec "$1" sh -c 'for f in ${EDGE_STORAGE}/certificates/*/*/*.crt; do
  [ -f "$f" ] && printf "${READING_MARK}%s\\n" "$f" && cat "$f"; done; true' || exit
echo "${LOG_MARK}"
docker logs --tail 5000 "$1" 2>&1 | grep -F '"identifier"' | tail -n 300
exit 0`;

/** At most this many lines of the script's output are read (the rest is not a proxy's). */
const MAX_LINES = 50_000;

/**
 * Reads back, over the server's SSH connection, the certificates a server's edge proxy holds for
 * the domains routed with TLS and what it logged obtaining them, and records what changed (see
 * certificateChanges): the `edge_certificates` read model, and the notices channels hear of.
 */
@Injectable()
export class EdgeCertificates {
  constructor(
    private readonly proxy: EdgeProxy,
    private readonly lookup: DeploymentLookup,
    private readonly sessions: ServerSessions,
    private readonly writer: EventWriter,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Looks once; answers how many changes it recorded. */
  async observe(serverId: string, ctx: RequestContext): Promise<number> {
    const { config } = await this.proxy.desired(serverId);
    if (!config.certificates.length) return 0;
    const server = await this.lookup.server(serverId);
    const session = await this.sessions.open(server);
    const lines: string[] = [];
    let code: number | null;
    try {
      ({ code } = await session.exec(
        ['sh', '-c', CERTIFICATES_SCRIPT, 'slipway-edge-certificates', EDGE_CONTAINER],
        {
          onLine: (stream, text) => {
            if (stream === 'stdout' && lines.length < MAX_LINES) lines.push(text);
          },
        },
      ));
    } finally {
      session.close();
    }
    if (code !== 0)
      throw conflict(`The edge proxy's certificates could not be read (exit ${code})`);
    const readings = readCertificates(lines.join('\n'));
    const known = this.reads.collection<EdgeCertificateDoc>('edge_certificates');
    const now = this.clock.now();
    const events = [];
    for (const domain of config.certificates) {
      const reading = readings.get(domain) ?? { certificate: null, failure: null };
      events.push(
        ...certificateChanges(await known.get(edgeCertificateId(serverId, domain)), reading, {
          serverId,
          domain,
          now,
          warnDays: this.config.edge.certExpiryWarnDays,
        }),
      );
    }
    if (events.length) await this.writer.append(serverEdgeStream(serverId), events, 'any', ctx);
    return events.length;
  }
}
