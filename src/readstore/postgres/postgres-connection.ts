import pg from 'pg';

/**
 * How long a connection attempt may take, and a query wait for its answer, before the caller is
 * answered with an error: a server that stopped answering (a link down, a host gone) must fail
 * the request in time, never hold it. Below the read-your-writes wait, so a command's own
 * statements fail before that wait would.
 */
export const CONNECT_TIMEOUT_MS = 5_000;
export const QUERY_TIMEOUT_MS = 10_000;

/**
 * Settings the server enforces on each session:
 * - a transaction left open by a client that went away (its link cut mid-append, holding the
 *   append lock) is ended after 5 s, releasing its locks for everyone else; the server itself
 *   would notice the dead peer only after its TCP keepalive, hours later by default;
 * - a statement runs at most 60 s.
 */
const SESSION_OPTIONS = '-c idle_in_transaction_session_timeout=5000 -c statement_timeout=60000';

/** A client's settings: the address, the timeouts above, and TCP keepalive on its socket. */
export function connectionSettings(url: string): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    options: SESSION_OPTIONS,
  };
}

/**
 * A pool of at most `max` connections with those settings. An idle connection that breaks is
 * replaced at the next query; its error must not crash the process.
 */
export function openPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ ...connectionSettings(url), max });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * A connection of the pool for the caller's own use (a transaction). While out of the pool it has
 * no listener of the pool's, so a server that ends it (a restart, an idle-transaction timeout)
 * would emit an 'error' nobody hears, which ends the process. The error is kept instead: the
 * query in flight fails by itself, and at release the connection is dropped, not pooled.
 */
export async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  let ended: Error | undefined;
  const note = (error: Error) => (ended ??= error);
  client.on('error', note);
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) => {
    client.removeListener('error', note);
    release(error ?? ended);
  };
  return client;
}
