import { controlCharacters } from './control-characters.js';

/**
 * Text that may come from a user (names, reasons, remote output, error messages) enters a log
 * line only through here: as a JSON string, so it stays on one line, is visibly quoted, and
 * cannot forge a line or steer a terminal (C1 and bidi controls escaped too, which JSON leaves).
 */
export function logText(text: string): string {
  return JSON.stringify(text).replace(
    controlCharacters(),
    (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}

/**
 * An error for the log: its name and quoted message, then the stack frames (code locations).
 * The message of an unexpected error may quote input; the frames never do.
 */
export function errorForLog(error: unknown): string {
  if (!(error instanceof Error)) return logText(String(error));
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return [`${error.name}: ${logText(error.message)}`, ...frames].join('\n');
}
