import { setImmediate as nextTurn } from 'node:timers';

/**
 * Whether a version number that other processes move (SQLite's `data_version`) has moved since
 * last looked at, read at most once per turn of the event loop: under load one read serves every
 * request of the turn, and a request handled in the turn another process commits in reached this
 * one before that commit could have been answered, so it is concurrent with it either way.
 */
export class VersionWatch {
  private seen: number | null = null;
  private readThisTurn = false;

  constructor(private readonly read: () => number | null) {}

  moved(): boolean {
    if (this.readThisTurn) return false;
    this.readThisTurn = true;
    nextTurn(() => (this.readThisTurn = false));
    const version = this.read();
    if (version === this.seen) return false;
    this.seen = version;
    return true;
  }
}
