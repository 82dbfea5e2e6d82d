import { createServer, type Server } from 'node:net';

/** A loopback port nothing listens on. */
export function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A loopback TCP server: `silent` accepts and never speaks; `http` answers as a web server. */
export function listener(kind: 'silent' | 'http'): Promise<{ port: number; server: Server }> {
  return new Promise((resolve) => {
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      if (kind === 'http') socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    }).listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as { port: number }).port, server }),
    );
  });
}
