import { existsSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Hears commits to a SQLite file made by any process (each writes the `-wal` journal) through
 * change notifications (inotify on Linux), so a loop that waits for another process wakes within
 * milliseconds instead of at its next poll. The journal is watched while it exists, else the
 * directory, filtered by name (SQLite deletes the journal when the last connection closes). A
 * burst of writes calls each listener once, `coalesceMs` after the first.
 *
 * Notifications can be missed (network file systems, a full inotify queue) or refused by the
 * platform: callers keep a slower poll as the fallback, never rely on this alone.
 */
export class FileChangeSignal {
  private watcher: FSWatcher | null = null;
  private watched: string | null = null;
  private failed = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly names: ReadonlySet<string>;
  /** The write-ahead log beside the file. */
  private readonly journal: string;

  constructor(
    private readonly file: string,
    private readonly coalesceMs = 5,
  ) {
    this.journal = `${file}-wal`;
    this.names = new Set([basename(file), basename(this.journal)]);
  }

  /** True while notifications arrive; false before the first listener or once watching failed. */
  get watching(): boolean {
    return this.watcher !== null;
  }

  /** What is watched: the journal, or the directory while there is no journal. */
  get watchedPath(): string | null {
    return this.watcher ? this.watched : null;
  }

  /**
   * Calls `listener` after the file changes; returns the function that stops listening. The
   * journal or directory is watched only while someone listens.
   */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private start(): void {
    if (this.watcher || this.failed || this.file === ':memory:' || this.file === '') return;
    try {
      this.watcher = this.watchJournal() ?? this.watchDirectory();
      this.watcher.on('error', () => {
        // The directory went away or the watch broke: the callers' polls carry on alone.
        this.failed = true;
        this.close();
      });
    } catch {
      this.failed = true;
      this.watcher = null;
    }
  }

  /**
   * The write-ahead log itself, when it exists: every commit writes it, and while a connection
   * has the database open (the caller's own) SQLite neither deletes nor replaces it. Watched
   * alone, writes to the directory's other files do not wake this process: the read models'
   * log beside the events' is written hundreds of times a second while projections rebuild.
   * Removed all the same (every connection closed), the directory is watched instead.
   */
  private watchJournal(): FSWatcher | null {
    if (!existsSync(this.journal)) return null;
    try {
      const watcher = watch(this.journal, { persistent: false }, (type) => {
        if (type === 'rename') this.rewatch(watcher);
        this.schedule();
      });
      this.watched = this.journal;
      return watcher;
    } catch {
      return null;
    }
  }

  /** The directory, until the journal appears (the first commit to a new file writes it). */
  private watchDirectory(): FSWatcher {
    const journalName = basename(this.journal);
    const watcher = watch(dirname(this.file), { persistent: false }, (_type, changed) => {
      // Some platforms do not name the file: then every change in the directory counts.
      if (changed && !this.names.has(changed.toString())) return;
      if (changed?.toString() === journalName && existsSync(this.journal)) this.rewatch(watcher);
      this.schedule();
    });
    this.watched = dirname(this.file);
    return watcher;
  }

  /** Watches anew, if `current` is still what is watched. */
  private rewatch(current: FSWatcher): void {
    if (this.watcher !== current) return;
    current.close();
    this.watcher = null;
    this.start();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      for (const listener of [...this.listeners]) listener();
    }, this.coalesceMs);
    this.timer.unref();
  }
}
