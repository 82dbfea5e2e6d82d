import type { SshSession } from '../ssh-session.js';

/** How long a command that reads a server may run, and how much of its output is kept. */
export interface OutputBounds {
  timeoutMs: number;
  /** Lines of stdout kept; the rest is read and dropped. */
  maxLines: number;
  /** Characters kept of each line, when lines are cut. */
  maxLineChars?: number;
}

/** A command's exit code and the stdout lines kept of it (stderr is dropped). */
export interface CommandOutput {
  code: number | null;
  stdout: string[];
}

/** Runs a command that only reads the server, within `bounds`. */
export async function commandOutput(
  session: SshSession,
  args: string[],
  bounds: OutputBounds,
): Promise<CommandOutput> {
  const stdout: string[] = [];
  const { maxLines, maxLineChars } = bounds;
  const result = await session.exec(args, {
    onLine: (stream, text) => {
      if (stream === 'stdout' && stdout.length < maxLines)
        stdout.push(maxLineChars === undefined ? text : text.slice(0, maxLineChars));
    },
    signal: AbortSignal.timeout(bounds.timeoutMs),
  });
  return { code: result.code, stdout };
}

/** `sh -c script`, the script reading the runner's remote directory as `$1`. */
export function scriptWithRemoteDir(script: string, remoteDir: string): string[] {
  return ['sh', '-c', script, 'slipway', remoteDir];
}
