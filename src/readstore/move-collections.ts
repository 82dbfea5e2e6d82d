import type { CollectionSpec, Doc, ReadStore } from './read-store.port.js';

/** Where a store records the moves it received (one document per move, id: the move's name). */
export const STORE_MOVES: CollectionSpec = { name: 'store_moves' };

/** What a finished move copied, per collection; kept in `store_moves`. */
export interface StoreMoveDoc extends Doc {
  /** ISO 8601: when the copy was marked done. */
  movedAt: string;
  documents: Record<string, number>;
}

export interface MoveReport {
  /** Documents copied by this call, per collection (a collection with none is left out). */
  copied: Record<string, number>;
  /** The move was already marked done by an earlier call. */
  alreadyDone: boolean;
}

/** Documents per transaction, and per `$in` list. */
const PAGE = 500;

/**
 * Moves `collections` from `from` to `to`, under the name `move`: copies each document `to`
 * does not hold yet, marks the move done in `to`, then empties the collections in `from`.
 * Crash-safe and idempotent: a copy stopped halfway is resumed (what was copied is skipped),
 * and documents found in `from` after the mark (a stop before they were cleared) are moved the
 * same way. Never overwrites: a document `to` holds is newer than the one left behind.
 */
export async function moveCollections(
  from: ReadStore,
  to: ReadStore,
  collections: CollectionSpec[],
  move: string,
  now: () => Date = () => new Date(),
): Promise<MoveReport> {
  await to.ensureCollection(STORE_MOVES);
  for (const spec of collections) await to.ensureCollection(spec);
  const marked = await to.collection<StoreMoveDoc>(STORE_MOVES.name).get(move);
  const copied: Record<string, number> = {};
  const found: string[] = [];
  for (const { name } of collections) {
    if ((await from.collection(name).count()) === 0) continue;
    found.push(name);
    copied[name] = await copyAbsent(from, to, name);
  }
  if (!marked) {
    await to
      .collection<StoreMoveDoc>(STORE_MOVES.name)
      .put({ id: move, movedAt: now().toISOString(), documents: copied });
  }
  for (const name of found) await from.collection(name).clear();
  return {
    copied: Object.fromEntries(Object.entries(copied).filter(([, n]) => n > 0)),
    alreadyDone: !!marked,
  };
}

/**
 * Copies `collections` from `from` to `to`, leaving `from` as it is: each document `to` does
 * not hold yet (a copy stopped halfway resumes where it stopped). Counts per collection.
 */
export async function copyCollections(
  from: ReadStore,
  to: ReadStore,
  collections: CollectionSpec[],
): Promise<Record<string, number>> {
  const copied: Record<string, number> = {};
  for (const spec of collections) {
    await to.ensureCollection(spec);
    copied[spec.name] = await copyAbsent(from, to, spec.name);
  }
  return copied;
}

/** Pages through `name` in `from` by id; each page commits in one transaction of `to`. */
async function copyAbsent(from: ReadStore, to: ReadStore, name: string): Promise<number> {
  let copied = 0;
  let cursor: string | undefined;
  do {
    const page = await from.collection(name).find({}, { sort: { id: 1 }, limit: PAGE, cursor });
    copied += await to.transaction(async (session) => {
      const target = session.collection(name);
      const ids = page.items.map((d) => d.id);
      const held = await target.find({ id: { $in: ids } }, { limit: PAGE });
      const skip = new Set(held.items.map((d) => d.id));
      const fresh = page.items.filter((d) => !skip.has(d.id));
      for (const doc of fresh) await target.put(doc);
      return fresh.length;
    });
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return copied;
}
