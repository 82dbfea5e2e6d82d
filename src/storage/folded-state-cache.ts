/** A stream's state folded up to (and including) `revision`. */
export interface FoldedState<S> {
  revision: bigint;
  state: S;
}

interface Entry {
  /** The decider that folded it: another decider folding the same stream gets a miss. */
  owner: object;
  revision: bigint;
  state: unknown;
}

/**
 * Least-recently-used map from stream to folded state. It only ever holds states made of
 * events the store has acknowledged, and states are never mutated (deciders return new ones),
 * so an entry is a correct prefix of its stream: whatever was appended since, by this process
 * or another, is read from `revision + 1` and folded on top.
 */
export class FoldedStateCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = 2_000) {}

  get<S>(stream: string, owner: object): FoldedState<S> | undefined {
    const entry = this.entries.get(stream);
    if (!entry || entry.owner !== owner) return undefined;
    // Re-insert: Map keeps insertion order, so the first key is the least recently used.
    this.entries.delete(stream);
    this.entries.set(stream, entry);
    return { revision: entry.revision, state: entry.state as S };
  }

  set<S>(stream: string, owner: object, folded: FoldedState<S>): void {
    const current = this.entries.get(stream);
    // Never step back: a slower caller may finish after a faster one cached a newer revision.
    if (current && current.owner === owner && current.revision > folded.revision) return;
    this.entries.delete(stream);
    this.entries.set(stream, { owner, revision: folded.revision, state: folded.state });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
