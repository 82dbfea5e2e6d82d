import type {
  Collection,
  Doc,
  DocChange,
  ReadStore,
  ReadStoreSession,
} from '../src/readstore/read-store.port.js';

interface Held {
  doc: Doc | null;
  /** The submission that wrote it. */
  seq: number;
}

/**
 * Documents submitted to a BulkWriter and not yet committed, over the store's committed state:
 * what the next batch must read while the one before it is being written.
 */
export class StagedDocuments {
  private readonly held = new Map<string, Map<string, Held>>();

  /** `writeOnly`: collections no handler reads (see perEvent); their documents are not held. */
  constructor(
    private readonly store: ReadStore,
    private readonly writeOnly: ReadonlySet<string>,
  ) {}

  async get(collection: string, id: string): Promise<Doc | null> {
    const held = this.held.get(collection)?.get(id);
    // A copy, as a read from the store would be: a handler may keep what it was given.
    if (held) return held.doc === null ? null : structuredClone(held.doc);
    return this.store.collection(collection).get(id);
  }

  hold(changes: DocChange[], seq: number): void {
    for (const change of changes) {
      if (this.writeOnly.has(change.collection)) continue;
      const [id, doc] = 'put' in change ? [change.put.id, change.put] : [change.delete, null];
      let docs = this.held.get(change.collection);
      if (!docs) this.held.set(change.collection, (docs = new Map()));
      docs.set(id, { doc, seq });
    }
  }

  /** Submission `seq` has committed: its documents are read from the store from now on. */
  release(seq: number): void {
    for (const docs of this.held.values()) {
      for (const [id, held] of docs) if (held.seq === seq) docs.delete(id);
    }
  }
}

/**
 * A session for one projection's batch whose writes are collected, not written: they are
 * submitted with the batch once the projection has applied it without failing.
 */
export class StagingSession implements ReadStoreSession {
  readonly changes: DocChange[] = [];

  constructor(private readonly staged: StagedDocuments) {}

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    const unsupported = (what: string) =>
      Promise.reject(new Error(`${what} is not available while a batch is staged`));
    return {
      get: (id) => this.staged.get(name, id) as Promise<T | null>,
      put: async (doc) => void this.changes.push({ collection: name, put: doc }),
      delete: async (id) => void this.changes.push({ collection: name, delete: id }),
      find: () => unsupported('find'),
      count: () => unsupported('count'),
      clear: () => unsupported('clear'),
    };
  }
}
