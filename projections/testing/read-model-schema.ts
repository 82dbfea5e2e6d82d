import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';

const file = fileURLToPath(new URL('../../contract/read-models.json', import.meta.url));

interface Published {
  collections: Record<
    string,
    {
      store: 'read-models' | 'primary';
      projection: string | null;
      indexes: { fields: string[] }[];
      document: Record<string, unknown>;
    }
  >;
}

let validators: Map<string, ValidateFunction> | null = null;

function published(): Published {
  return JSON.parse(readFileSync(file, 'utf8')) as Published;
}

/** Validators of contract/read-models.json, one per collection. */
function compiled(): Map<string, ValidateFunction> {
  if (validators) return validators;
  const ajv = new Ajv({ allErrors: true, strict: true });
  validators = new Map(
    Object.entries(published().collections).map(([name, c]) => [name, ajv.compile(c.document)]),
  );
  return validators;
}

/**
 * Every published collection (the projections' and those services write), or those of one
 * store: `read-models` (rebuildable) or `primary` (the only copy).
 */
export function publishedCollections(store?: 'read-models' | 'primary'): string[] {
  return Object.entries(published().collections)
    .filter(([, c]) => store === undefined || c.store === store)
    .map(([name]) => name);
}

/** The published collections no projection owns (written by services, not rebuildable). */
export function serviceCollections(): string[] {
  return Object.entries(published().collections)
    .filter(([, c]) => c.projection === null)
    .map(([name]) => name);
}

/** Every published index as the collection and its fields. */
export function publishedIndexes(
  store?: 'read-models' | 'primary',
): { collection: string; fields: string[] }[] {
  return Object.entries(published().collections)
    .filter(([, c]) => store === undefined || c.store === store)
    .flatMap(([collection, c]) => c.indexes.map((i) => ({ collection, fields: i.fields })));
}

/**
 * Why each document breaks the published schema of its collection (empty when all conform).
 * A collection the schema does not publish is itself a problem.
 */
export function readModelViolations(collection: string, docs: object[]): string[] {
  const validate = compiled().get(collection);
  if (!validate) return [`${collection}: not in contract/read-models.json`];
  const problems: string[] = [];
  for (const doc of docs) {
    if (validate(doc)) continue;
    const id = (doc as { id?: unknown }).id;
    for (const e of validate.errors ?? []) {
      problems.push(`${collection}/${String(id)}${e.instancePath}: ${e.message ?? 'invalid'}`);
    }
  }
  return problems;
}
