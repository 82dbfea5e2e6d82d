import type { Server } from 'node:http';
import type { Request } from 'express';
import type { Arrival } from './allowed-hosts.js';

/**
 * Reads where a request came in. The bound address is known once the server listens (and
 * never changes after): read then, and kept.
 */
export function arrivalReader(server: Server): (req: Request) => Arrival {
  let boundAddress: string | null = null;
  return (req) => {
    if (boundAddress === null) {
      const bound = server.address();
      if (bound !== null && typeof bound === 'object') boundAddress = bound.address;
    }
    return {
      boundAddress: boundAddress ?? '',
      localAddress: req.socket.localAddress ?? '',
      localPort: req.socket.localPort ?? 0,
      protocol: req.protocol,
    };
  };
}
