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

/**
 * Every document of `collection` matching `filter`, read page by page (1,000 at a time): for a
 * background pass that must see them all, never for a request's answer.
 */
export async function readAll<T extends Doc>(
  collection: CollectionReader<T>,
  filter: Filter,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await collection.find(filter, { limit: 1000, cursor });
    all.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

/** Equality on each field given a value; a field left out (undefined) does not filter. */
export function whereGiven(fields: Record<string, Scalar | undefined>): Filter {
  const filter: Filter = {};
  for (const [field, value] of Object.entries(fields))
    if (value !== undefined) filter[field] = value;
  return filter;
}

/**
 * The filter for a list of things in projects: documents whose `field` is one of the projects
 * the caller reads (`readable`), or no condition when it reads every project (null/absent).
 */
export function inProjects(
  readable: readonly string[] | null | undefined,
  field = 'projectId',
): Filter {
  return readable ? { [field]: { $in: [...readable] } } : {};
}
