import { readFileSync } from 'node:fs';
import type { AppConfig } from '../../src/config/app-config.js';
import { EDGE_CONTAINER } from '../../src/runner/edge/edge-container.js';
import { EDGE_NETWORK } from '../../src/runner/edge/edge-network.js';
import type { DockerEngine } from './docker-engine.js';
import { startPebble, type TestPebble } from './pebble.js';
import { freePort } from './ports.js';

/** Pebble for an edge suite, and what the proxy is published on and obtains certificates with. */
export interface EdgeAcme {
  pebble: TestPebble;
  httpPort: number;
  tlsPort: number;
  /** The proxy's port mappings (loopback), for startEdgeSuite's `publish`. */
  publish: string[];
  /** The edge configuration's `acme`, for startEdgeSuite's `edge`. */
  acme: AppConfig['edge']['acme'];
}

/**
 * Readies an edge suite with TLS: no proxy, certificate or ACME account left from another run
 * (or another CA), the proxy's network there, and Debian's Pebble listening on that network's
 * gateway (where the proxy's container reaches this host), validating challenges against the
 * proxy's published ports.
 */
export async function startEdgeAcme(engine: DockerEngine): Promise<EdgeAcme> {
  engine.docker(['rm', '-f', EDGE_CONTAINER]);
  engine.docker(['volume', 'rm', '-f', 'slipway-edge-data', 'slipway-edge-config']);
  try {
    engine.docker(['network', 'inspect', EDGE_NETWORK]);
  } catch {
    engine.docker(['network', 'create', EDGE_NETWORK]);
  }
  const gateway = engine
    .docker(['network', 'inspect', '-f', '{{range .IPAM.Config}}{{.Gateway}}{{end}}', EDGE_NETWORK])
    .trim();
  const [httpPort, tlsPort] = [await freePort(), await freePort()];
  const pebble = await startPebble({ address: gateway, httpPort, tlsPort });
  return {
    pebble,
    httpPort,
    tlsPort,
    publish: [`127.0.0.1:${httpPort}:80`, `127.0.0.1:${tlsPort}:443`],
    acme: {
      ca: pebble.directory,
      email: 'ops@example.com',
      caRootPem: readFileSync(pebble.caRootFile, 'utf8'),
    },
  };
}
