import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a store adapter's contract suite runs against: a fresh, empty store. */
export interface StoreHarness<S> {
  store: S;
  /** Closes the store and opens the same storage again. */
  reopen(): Promise<S>;
  dispose(): Promise<void>;
}

/** A store kept in `fileName` of a new temporary directory; `dispose` removes the directory. */
export function fileStoreHarness<S extends { close(): Promise<void> }>(
  fileName: string,
  open: (file: string) => S,
): StoreHarness<S> {
  const dir = mkdtempSync(join(tmpdir(), 'slipway-store-'));
  const file = join(dir, fileName);
  let store = open(file);
  return {
    store,
    reopen: async () => {
      await store.close();
      store = open(file);
      return store;
    },
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A store in its own new database of a server: `connect` opens it again on reopen. */
export async function databaseStoreHarness<S extends { close(): Promise<void> }>(
  url: string,
  connect: (url: string) => Promise<S>,
): Promise<StoreHarness<S>> {
  let store = await connect(url);
  return {
    store,
    reopen: async () => {
      await store.close();
      store = await connect(url);
      return store;
    },
    dispose: () => store.close(),
  };
}
