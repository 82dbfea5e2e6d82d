/** `1.2 MB`: bytes for people. */
export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

/** Progress lines at most every 250 ms, then a last one. */
export function progressReporter(report: (line: string) => void, what: string) {
  let last = 0;
  return {
    bytes(sent: number) {
      const now = Date.now();
      if (now - last < 250) return;
      last = now;
      report(`${what}: ${sizeOf(sent)} sent`);
    },
    done(sent: number) {
      report(`${what}: ${sizeOf(sent)} sent, done`);
    },
  };
}
