/**
 * One holder per stream at a time, in arrival order. `exclusive` passes a `release` that may
 * be called early (once the work no longer needs the stream); it is called at the end anyway.
 */
export class StreamLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async exclusive<T>(stream: string, work: (release: () => void) => Promise<T>): Promise<T> {
    const previous = this.tails.get(stream) ?? Promise.resolve();
    let open!: () => void;
    const mine = new Promise<void>((resolve) => (open = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(stream, tail);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      open();
      // The last holder leaves no entry behind: the map holds only streams in use.
      if (this.tails.get(stream) === tail) this.tails.delete(stream);
    };
    await previous;
    try {
      return await work(release);
    } finally {
      release();
    }
  }
}
