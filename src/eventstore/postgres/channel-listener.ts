import pg from 'pg';
import { connectionSettings } from '../../readstore/postgres/postgres-connection.js';

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;
/**
 * An idle connection whose peer vanished (a link cut) raises no error for many minutes: the
 * listener asks the server something this often, and a question left unanswered within the
 * query timeout counts as a broken connection.
 */
const HEARTBEAT_MS = 5_000;

/**
 * One connection that `LISTEN`s on a channel and hands each notification's payload on. When
 * the connection breaks it reconnects with backoff (0.5 s doubling to 30 s) and listens again;
 * meanwhile `listening` is false, and whoever relies on it polls.
 */
export class ChannelListener {
  private client: pg.Client | null = null;
  private readonly handlers: ((payload: string) => void)[] = [];
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private delayMs = FIRST_RETRY_MS;
  private heartbeat: NodeJS.Timeout | null = null;
  /** A heartbeat's question is out: the next waits for its answer (or its timeout). */
  private beating = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
  ) {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid channel ${channel}`);
  }

  get listening(): boolean {
    return this.client !== null;
  }

  onMessage(handler: (payload: string) => void): void {
    this.handlers.push(handler);
  }

  /** Listens once; a first failure is thrown (the server is not there at start-up). */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(connectionSettings(this.url));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', ({ channel, payload }) => {
      if (channel === this.channel && payload !== undefined)
        for (const handler of this.handlers) handler(payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.delayMs = FIRST_RETRY_MS;
    this.heartbeat ??= setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
    // What was sent while nobody listened is lost: an empty payload says so.
    for (const handler of this.handlers) handler('');
  }

  private beat(): void {
    const client = this.client;
    if (!client || this.beating) return;
    this.beating = true;
    client
      .query('SELECT 1')
      .catch(() => this.lost(client))
      .finally(() => (this.beating = false));
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch(() => {
        this.delayMs = Math.min(this.delayMs * 2, LAST_RETRY_MS);
        this.scheduleReconnect();
      });
    }, this.delayMs);
    this.retry.unref();
  }
}
