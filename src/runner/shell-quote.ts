/**
 * One POSIX shell word for any string: single-quoted, with embedded quotes closed, escaped and
 * reopened. Whatever the value holds (`;`, `$(...)`, quotes, newlines), it reaches the remote
 * command as one inert argument.
 */
export function quote(value: string): string {
  if (value.includes('\0')) throw new Error('NUL cannot be passed to a remote command');
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A command line from an argument vector; every argument quoted. */
export function commandLine(args: string[]): string {
  return args.map(quote).join(' ');
}
