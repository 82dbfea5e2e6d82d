import type pg from 'pg';

/** PostgreSQL's code for a unique violation. */
export const UNIQUE_VIOLATION = '23505';

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === UNIQUE_VIOLATION;
}

/** A serialization failure or a deadlock: the transaction may succeed if run again. */
export function isTransient(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40001' || code === '40P01';
}

/**
 * The connection failed, not the statement: no server error at all (a socket error, a timeout),
 * or one that ends the session (class 08, or 57P: the server shutting down).
 */
export function isConnectionError(error: unknown): boolean {
  const { severity, code } = (error ?? {}) as { severity?: unknown; code?: unknown };
  if (typeof severity !== 'string' || typeof code !== 'string') return true;
  return code.startsWith('08') || code.startsWith('57P');
}

/**
 * Rolls back after `cause`; returns the error to release the connection with (`release(error)`
 * drops it from the pool) when it is broken: its connection failed, or even the rollback did.
 */
export async function rollback(client: pg.PoolClient, cause: unknown): Promise<Error | undefined> {
  if (isConnectionError(cause)) return cause as Error;
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch (error) {
    return error as Error;
  }
}
