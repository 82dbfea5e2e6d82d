import { Logger } from '@nestjs/common';
import { moveCollections, type MoveReport } from '../readstore/move-collections.js';
import type { ReadStore } from '../readstore/read-store.port.js';
import { PRIMARY_COLLECTIONS } from './primary-collections.js';

/** The move's name in the primary store's `store_moves`. */
export const PRIMARY_DATA_MOVE = 'primary-data-from-read-models';

const logger = new Logger('Storage');

/**
 * Releases before the primary store kept its collections in the read store: at start, whatever
 * is still there is moved over (copied, marked done, then cleared from the read store), so an
 * installation upgraded in place loses nothing. On a store already moved this only counts.
 */
export async function movePrimaryData(reads: ReadStore, primary: ReadStore): Promise<MoveReport> {
  const report = await moveCollections(reads, primary, PRIMARY_COLLECTIONS, PRIMARY_DATA_MOVE);
  const copied = Object.entries(report.copied);
  if (copied.length > 0) {
    const list = copied.map(([name, n]) => `${name}: ${n}`).join(', ');
    logger.log(`Moved from the read store to the primary store (${list})`);
  }
  return report;
}
