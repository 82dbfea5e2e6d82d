import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Hears writes to a SQLite file made by any process (a commit writes its `-wal` journal; a
 * checkpoint writes the file itself) through the directory's change notifications (inotify on
 * Linux), so a loop that waits for another process wakes within milliseconds instead of at its
 * next poll. The directory is watched, not the file, because SQLite deletes and recreates the
 * journal. A burst of writes calls each listener once, `coalesceMs` after the first.
 *
 * Notifications can be missed (network file systems, a full inotify queue) or refused by the
 * platform: callers keep a slower poll as the fallback, never rely on this alone.
 */
export class FileChangeSignal {
  private watcher: FSWatcher | null = null;
  private failed = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly names: ReadonlySet<string>;

  constructor(
    private readonly file: string,
    private readonly coalesceMs = 5,
  ) {
    const name = basename(file);
    this.names = new Set([name, `${name}-wal`]);
  }

  /** True while notifications arrive; false before the first listener or once watching failed. */
  get watching(): boolean {
    return this.watcher !== null;
  }

  /**
   * Calls `listener` after the file changes; returns the function that stops listening. The
   * directory is watched only while someone listens.
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
      this.watcher = watch(dirname(this.file), { persistent: false }, (_type, changed) => {
        // Some platforms do not name the file: then every change in the directory counts.
        if (changed && !this.names.has(changed.toString())) return;
        this.schedule();
      });
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

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      for (const listener of [...this.listeners]) listener();
    }, this.coalesceMs);
    this.timer.unref();
  }
}
