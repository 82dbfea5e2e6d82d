import type { Doc, ReadStoreSession } from '../src/readstore/read-store.port.js';

interface Held {
  doc: Doc | null;
  changed: boolean;
}

/**
 * The documents one projection touches while applying a batch: each is read from the store
 * at most once and written at most once, when the batch is flushed. A deployment's document
 * changes with each of its steps; without this a rebuild would write it once per event.
 */
export class BatchDocuments {
  private readonly held = new Map<string, Map<string, Held>>();

  constructor(private readonly session: ReadStoreSession) {}

  async get(collection: string, id: string): Promise<Doc | null> {
    const docs = this.docsOf(collection);
    let held = docs.get(id);
    if (!held) {
      held = { doc: await this.session.collection<Doc>(collection).get(id), changed: false };
      docs.set(id, held);
    }
    return held.doc;
  }

  /** `null` deletes the document. */
  set(collection: string, id: string, doc: Doc | null): void {
    this.docsOf(collection).set(id, { doc, changed: true });
  }

  async flush(): Promise<void> {
    for (const [name, docs] of this.held) {
      const collection = this.session.collection<Doc>(name);
      for (const [id, { doc, changed }] of docs) {
        if (!changed) continue;
        if (doc === null) await collection.delete(id);
        else await collection.put(doc);
      }
    }
    this.held.clear();
  }

  private docsOf(collection: string): Map<string, Held> {
    let docs = this.held.get(collection);
    if (!docs) this.held.set(collection, (docs = new Map()));
    return docs;
  }
}
