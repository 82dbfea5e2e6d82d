import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type Socket } from 'node:net';
import { startTestApp, type TestApp } from './support/test-app.js';

/** A raw loopback connection that records what the server sent and whether it closed. */
interface RawClient {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

function open(url: string, localAddress: string): Promise<RawClient> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** Resolves true when every client was closed within `ms`, false otherwise. */
async function allClosedWithin(clients: RawClient[], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const closed = Promise.all(clients.map((c) => c.closed)).then(() => true as const);
  const result = await Promise.race([closed, timeout]);
  clearTimeout(timer);
  return result;
}

async function healthStatus(url: string): Promise<number> {
  return (await fetch(`${url}/trpc/health`)).status;
}

describe('slow clients (raw sockets over loopback)', () => {
  let t: TestApp;
  /** The name the server answers to (any other Host is refused). */
  const host = () => new URL(t.url).host;

  beforeAll(async () => {
    t = await startTestApp({
      notes: true,
      config: {
        http: {
          headersTimeoutMs: 1000,
          requestTimeoutMs: 2000,
          keepAliveTimeoutMs: 1000,
          maxConnectionsPerAddress: 25,
        },
      },
    });
  });
  afterAll(async () => t.close());

  it('closes 200 connections that send their headers slowly, while health keeps answering', async () => {
    // 200 slowloris connections spread over 10 loopback addresses (under the per-address cap).
    const clients: RawClient[] = [];
    for (let i = 0; i < 200; i++) {
      const client = await open(t.url, `127.0.0.${10 + (i % 10)}`);
      client.socket.write(`GET /trpc/health HTTP/1.1\r\nHost: ${host()}\r\n`);
      clients.push(client);
    }
    const drip = setInterval(() => {
      for (const c of clients) if (!c.socket.destroyed) c.socket.write('X-Slow: 1\r\n');
    }, 200);
    try {
      expect(await healthStatus(t.url)).toBe(200);
      expect(await allClosedWithin(clients, 8000)).toBe(true);
    } finally {
      clearInterval(drip);
      for (const c of clients) c.socket.destroy();
    }
    // Each was told why, in the documented shape.
    const answer = clients[0].received();
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"BAD_REQUEST"');
    expect(answer).toContain('not received in time');
    expect(await healthStatus(t.url)).toBe(200);
  });

  it('closes a connection whose body is shorter than its Content-Length', async () => {
    const client = await open(t.url, '127.0.0.30');
    client.socket.write(
      `POST /trpc/addNote HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 1000\r\n\r\n{"json":{"noteId":"stalled"',
    );
    try {
      expect(await allClosedWithin([client], 8000)).toBe(true);
    } finally {
      client.socket.destroy();
    }
    expect(await healthStatus(t.url)).toBe(200);
  });

  it('refuses connections over the per-address cap, and only from that address', async () => {
    const held: RawClient[] = [];
    for (let i = 0; i < 25; i++) held.push(await open(t.url, '127.0.0.40'));
    const over = await open(t.url, '127.0.0.40');
    const other = await open(t.url, '127.0.0.41');
    try {
      expect(await allClosedWithin([over], 5000)).toBe(true);
      expect(over.received()).toMatch(/^HTTP\/1\.1 429 /);
      expect(over.received()).toContain('"code":"RATE_LIMITED"');
      // Another address still gets a connection that answers, and so does health.
      other.socket.write(
        `GET /trpc/health HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`,
      );
      await allClosedWithin([other], 5000);
      expect(other.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(await healthStatus(t.url)).toBe(200);
    } finally {
      for (const c of [...held, over, other]) c.socket.destroy();
    }
    // Closed connections give their places back (as soon as the server has seen them close).
    let answer = '';
    for (let attempt = 0; attempt < 50 && !answer.startsWith('HTTP/1.1 200 '); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const again = await open(t.url, '127.0.0.40');
      again.socket.write(
        `GET /trpc/health HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`,
      );
      await allClosedWithin([again], 5000);
      answer = again.received();
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
