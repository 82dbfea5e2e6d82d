import type { PageInput } from '../common/page.input.js';
import type { CollectionReader, Doc, Filter, Page, Scalar, SortSpec } from './read-store.port.js';

/**
 * One page of a list procedure's answer: the documents of `collection` matching `filter` in
 * `sort` order, `limit` of them (else `defaultLimit`) from the request's cursor on, each shown
 * as `view` makes it (it may look something up).
 */
export async function readPage<T extends Doc, V>(
  collection: CollectionReader<T>,
  query: { filter: Filter; sort: SortSpec; defaultLimit: number },
  { limit, cursor }: PageInput,
  view: (doc: T) => V | Promise<V>,
): Promise<Page<V>> {
  const page = await collection.find(query.filter, {
    sort: query.sort,
    limit: limit ?? query.defaultLimit,
    cursor,
  });
  return {
    items: await Promise.all(page.items.map((doc) => view(doc))),
    nextCursor: page.nextCursor,
  };
}

/** Equality on each field given a value; a field left out (undefined) does not filter. */
export function whereGiven(fields: Record<string, Scalar | undefined>): Filter {
  const filter: Filter = {};
  for (const [field, value] of Object.entries(fields))
    if (value !== undefined) filter[field] = value;
  return filter;
}
