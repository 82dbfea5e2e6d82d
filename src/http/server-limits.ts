import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { AppConfig } from '../config/app-config.js';
import { AppError } from '../common/app-error.js';
import { errorBody } from './error-response.js';
import { RAW_SECURITY_HEADERS } from './security-headers.js';

/**
 * Limits Node enforces before Express sees a request: slow or stalled clients are cut off, one
 * address cannot hold every socket, and the answers Node writes itself (oversized headers,
 * timeouts, over the cap) keep the documented error shape.
 */
export function hardenServer(server: Server, limits: AppConfig['http']): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Node looks for expired requests on this period (30 s by default, whatever the timeouts):
  // without a shorter one a slow client outlives its deadline by up to half a minute.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4)));
  if (limits.maxConnectionsPerAddress > 0) capConnectionsPerAddress(server, limits);
  server.on('clientError', answerClientError);
}

function capConnectionsPerAddress(server: Server, limits: AppConfig['http']): void {
  const open = new Map<string, number>();
  // Node's own connection handling runs only for admitted sockets: a refused one never gets an
  // HTTP parser, so nothing it sends can reach the application.
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = peerAddress(socket);
    const count = open.get(address) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) {
      const error = new AppError('RATE_LIMITED', 'Too many open connections from this address', {
        retryAfterSeconds: 1,
      });
      socket.on('error', () => socket.destroy());
      socket.end(rawAnswer(error, 'Too Many Requests', 'Retry-After: 1\r\n'), () =>
        socket.destroy(),
      );
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
    for (const handler of handlers) handler.call(server, socket);
  });
}

/** The peer's address, an IPv4-mapped IPv6 address counted as the IPv4 one. */
function peerAddress(socket: Socket): string {
  const address = socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

interface HttpSocket extends Socket {
  /** Node's response in progress on this socket, if any. */
  _httpMessage?: { headersSent: boolean } | null;
}

function answerClientError(error: NodeJS.ErrnoException, socket: HttpSocket): void {
  // An answer already under way (a timeout after the handler replied) cannot get a second one.
  if (!socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('PAYLOAD_TOO_LARGE', 'The request line or headers exceed 16 KiB')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('BAD_REQUEST', 'The request was not received in time', { issues: [] })
        : new AppError('BAD_REQUEST', 'Malformed HTTP request', { issues: [] });
  const reason = appError.status === 413 ? 'Payload Too Large' : 'Bad Request';
  socket.end(rawAnswer(appError, reason), () => socket.destroy());
}

function rawAnswer(error: AppError, reason: string, extraHeaders = ''): string {
  const body = JSON.stringify(errorBody(error, 'none'));
  return (
    `HTTP/1.1 ${error.status} ${reason}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    RAW_SECURITY_HEADERS +
    extraHeaders +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}
