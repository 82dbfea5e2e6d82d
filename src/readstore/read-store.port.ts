/** See ReadStore.changeMark: compared for equality only. */
export type ChangeMark = number | string;

/** A read-model document. `id` is unique inside its collection. */
export interface Doc {
  id: string;
  [field: string]: unknown;
}

/**
 * A document type's own fields, without `Doc`'s index signature: what an answer built from a
 * document declares (`Omit` over a type with an index signature keeps only the signature).
 */
export type DocFields<T extends Doc> = {
  [K in keyof T as string extends K ? never : K]: T[K];
};

export type Scalar = string | number | boolean | null;

export interface FieldOperators {
  $eq?: Scalar;
  $in?: Scalar[];
  $gt?: string | number;
  $gte?: string | number;
  $lt?: string | number;
  $lte?: string | number;
}

/**
 * The Mongo-shaped filter subset every adapter supports: a field (dotted paths reach into
 * nested objects) equals a scalar, is `$in` a list, or lies in a `$gt/$gte/$lt/$lte` range.
 * Conditions on several fields are ANDed. A missing field matches `null`.
 */
export type Filter = Record<string, Scalar | FieldOperators>;

/** Sort keys in order of precedence; 1 ascending, -1 descending. Nulls sort first ascending. */
export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  /** 1-1000; default 100. */
  limit?: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** Present when more documents match after this page. */
  nextCursor: string | null;
}

export interface IndexSpec {
  fields: string[];
}

export interface CollectionSpec {
  name: string;
  indexes?: IndexSpec[];
}

export interface CollectionReader<T extends Doc = Doc> {
  get(id: string): Promise<T | null>;
  find(filter?: Filter, options?: FindOptions): Promise<Page<T>>;
  count(filter?: Filter): Promise<number>;
}

export interface Collection<T extends Doc = Doc> extends CollectionReader<T> {
  /** Inserts or replaces the document with this id. */
  put(doc: T): Promise<void>;
  delete(id: string): Promise<void>;
  /** Removes every document (used when a projection rebuilds). */
  clear(): Promise<void>;
}

export interface ReadStoreSession {
  collection<T extends Doc = Doc>(name: string): Collection<T>;
}

/** One document change of a bulk load: a document to insert or replace, or an id to delete. */
export type DocChange = { collection: string; put: Doc } | { collection: string; delete: string };

/**
 * Writes that run beside the caller (on SQLite, in a thread of their own): submissions commit
 * in submission order, each whole in one transaction (several queued ones may share it). Reads
 * through the store see a submission's changes once its promise resolves, not before. Once a
 * submission fails, every later one is refused too: each may have been computed on top of the
 * one before.
 */
export interface BulkWriter {
  submit(changes: DocChange[]): Promise<void>;
  /** Waits for what was submitted, then releases the writer. */
  close(): Promise<void>;
}

export interface ReadStore extends ReadStoreSession {
  /** Creates the collection and its indexes if they do not exist. */
  ensureCollection(spec: CollectionSpec): Promise<void>;
  /** Runs `work` so that all its writes commit together or not at all. */
  transaction<R>(work: (session: ReadStoreSession) => Promise<R>): Promise<R>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * A hint from the projection runner: many events are still to apply (a rebuild from position
   * 0, a long outage), or no longer. A store may trade disk space for write speed meanwhile;
   * what is committed stays committed either way.
   */
  catchingUp?(behind: boolean): Promise<void>;
  /**
   * Calls `listener` soon after documents may have changed, written by this process or
   * another; returns the function that stops listening. Optional: without it, readers poll.
   */
  onChanged?(listener: () => void): () => void;
  /**
   * A value that changes whenever anything commits to the store, from this process or another,
   * read without touching a document: who keeps documents read before may keep them while it
   * stays the same. Optional: without it (nor askChangeMark), nothing read is kept.
   */
  changeMark?(): ChangeMark;
  /** The same, for a store that must ask its server for it (one question per turn at most). */
  askChangeMark?(): Promise<ChangeMark>;
  /**
   * After a value was overwritten so as to be forgotten (an erased subject's key): removes the
   * old copies the store's own files may still hold, where the store can. Optional.
   */
  forgetOverwritten?(collection: string): Promise<void>;
  /**
   * A writer for bulk loads (see BulkWriter), for a store whose writes can overlap the
   * caller's work; the projection runner uses it while catching up. Optional.
   */
  bulkWriter?(): BulkWriter;
}

export const READ_STORE = Symbol('READ_STORE');

/**
 * The same port over a store of its own for data that is not derived from events (deployment
 * output, usage times, heartbeats, the notification outbox, the audit chain's links): the only
 * copy of what it holds, so the projection runner never writes to it and dropping the read
 * models to rebuild them leaves it untouched.
 */
export const PRIMARY_STORE = Symbol('PRIMARY_STORE');

export const MAX_FIND_LIMIT = 1000;
export const DEFAULT_FIND_LIMIT = 100;
