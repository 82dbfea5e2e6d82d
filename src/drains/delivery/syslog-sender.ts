import { connect, type TLSSocket } from 'node:tls';
import type { DrainTarget } from '../drain-endpoint.js';
import { octetCounted } from './rfc5424.js';

export interface SyslogShipment {
  target: DrainTarget;
  /** The address policy's answer for `target.host`: the only address connected to. */
  address: string;
  caCertificate: string | null;
  messages: string[];
  timeoutMs: number;
}

/**
 * Sends messages to a syslog receiver over TLS (RFC 5425): one connection per shipment, the
 * messages octet-counted, then a clean close. The server's certificate is checked against the
 * endpoint's host name and the drain's CA (or the system's roots). Syslog has no
 * acknowledgement: a shipment counts as delivered once the receiver has taken every byte and
 * the connection closed without error.
 */
export function shipSyslog(shipment: SyslogShipment): Promise<void> {
  const { target, address, caCertificate, messages, timeoutMs } = shipment;
  return new Promise<void>((resolve, reject) => {
    let socket: TLSSocket | null = null;
    const timer = setTimeout(() => {
      socket?.destroy();
      reject(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket?.destroy();
      reject(error);
    };
    socket = connect({
      host: address,
      port: target.port,
      servername: target.host,
      ca: caCertificate ?? undefined,
      minVersion: 'TLSv1.2',
      rejectUnauthorized: true,
    });
    let sent = false;
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      sent = true;
      socket!.end(Buffer.concat(messages.map(octetCounted)));
    });
    // The receiver closes after our close; 'close' without an error is the delivery.
    socket.once('close', (hadError) => {
      clearTimeout(timer);
      if (hadError) return;
      if (sent) resolve();
      else reject(new Error('the receiver closed the connection before TLS was established'));
    });
    socket.resume();
  });
}
