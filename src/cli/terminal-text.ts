import { controlCharacters } from '../common/control-characters.js';

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text from the server (names, reasons, log lines, error messages) is shown, never obeyed: C0 and
 * C1 control characters, DEL and the Unicode bidi and line-separator controls are printed as
 * visible escapes (`\u001b`), so an ESC sequence cannot move the cursor, recolour or clear the
 * terminal, and U+202E cannot reverse what the reader sees. `keepNewlines` leaves `\n` alone,
 * for output whose lines the CLI itself laid out.
 */
export function escapeControls(text: string, keepNewlines = false): string {
  return text.replace(controlCharacters(), (c) =>
    keepNewlines && c === '\n'
      ? c
      : (NAMED[c] ?? `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`),
  );
}
