import type { ChangeMark, ReadStore } from './read-store.port.js';

/**
 * Documents read from a store, kept until anything commits to it (its change mark moves), so a
 * read repeated on a quiet store costs one lookup instead of a query. Whatever is kept was read
 * after the mark it is kept under, so it is never older than what the store held at that mark:
 * a revoked credential or a changed role is read afresh by the first call after the commit.
 * Values are shared between callers, never to be changed. Without a change mark, nothing is kept.
 */
export class ReadThrough {
  private mark: ChangeMark | null = null;
  private readonly kept = new Map<string, unknown>();

  constructor(
    private readonly store: ReadStore,
    private readonly maxEntries = 1000,
  ) {}

  async read<T>(key: string, load: () => Promise<T>): Promise<T> {
    const { store } = this;
    // A mark known at once (SQLite) costs no extra turn of the microtask queue.
    const mark = store.changeMark
      ? store.changeMark()
      : store.askChangeMark
        ? await store.askChangeMark()
        : null;
    if (mark === null) return load();
    if (mark !== this.mark) {
      this.kept.clear();
      this.mark = mark;
    }
    if (this.kept.has(key)) return this.kept.get(key) as T;
    const value = await load();
    // Another call may have seen a newer mark meanwhile: keep only under the mark read first.
    if (this.mark === mark) {
      // Bounded: unknown credentials sent at random only ever empty it.
      if (this.kept.size >= this.maxEntries) this.kept.clear();
      this.kept.set(key, value);
    }
    return value;
  }
}
