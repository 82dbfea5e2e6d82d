import { setImmediate as nextTurn } from 'node:timers';

/**
 * An asked value shared by every caller of the turn of the event loop it was asked in: under
 * load one question serves every request of the turn. A caller of a later turn asks again, even
 * while the earlier question is still out (what it would answer may predate that caller).
 */
export class OncePerTurn<T> {
  private current: Promise<T> | null = null;

  constructor(private readonly ask: () => Promise<T>) {}

  get(): Promise<T> {
    if (this.current) return this.current;
    const asked = this.ask();
    this.current = asked;
    nextTurn(() => {
      if (this.current === asked) this.current = null;
    });
    return asked;
  }
}
