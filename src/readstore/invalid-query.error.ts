/** A filter, sort or cursor the read store cannot run. Raised before any storage access. */
export class InvalidQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidQueryError';
  }
}

const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z_][A-Za-z0-9_]{0,63}){0,7}$/;
const COLLECTION_NAME = /^[a-z][a-z0-9_]{0,62}$/;

export function assertFieldPath(path: string): void {
  if (!FIELD_PATH.test(path)) throw new InvalidQueryError(`invalid field path "${path}"`);
}

export function assertCollectionName(name: string): void {
  if (!COLLECTION_NAME.test(name)) throw new InvalidQueryError(`invalid collection name "${name}"`);
}
