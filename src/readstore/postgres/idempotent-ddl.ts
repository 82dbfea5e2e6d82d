import type pg from 'pg';

/**
 * A relation's name taken (42P07), its row type's (42710), or the catalog's unique index hit
 * (23505): another process created the same thing a moment before.
 */
const ALREADY_CREATED = new Set(['42P07', '42710', '23505']);

/**
 * Runs `CREATE ... IF NOT EXISTS` statements that several processes may run at the same time
 * (replicas starting together): PostgreSQL checks "not exists" before it takes the catalog's
 * locks, so the slower one can still fail on the name. Then the object exists, which is what
 * was asked; the statement is run once more to be sure.
 */
export async function createIfMissing(pool: Pick<pg.Pool, 'query'>, sql: string): Promise<void> {
  try {
    await pool.query(sql);
  } catch (error) {
    if (!ALREADY_CREATED.has(String((error as { code?: unknown }).code))) throw error;
    await pool.query(sql);
  }
}
