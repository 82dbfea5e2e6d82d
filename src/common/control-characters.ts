/**
 * Characters that steer a terminal or a log instead of showing: C0 controls, DEL, C1 controls,
 * the bidirectional overrides, embeddings, isolates and marks (U+202E shows `exe.txt` as
 * `txt.exe`), and the Unicode line and paragraph separators. Written as escapes in a string (a
 * regular expression literal with them trips no-control-regex, which is about accidents).
 */
export const CONTROL_CHARACTER_SET =
  '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

/** Matches one control character; global, for replacing. */
export function controlCharacters(): RegExp {
  return new RegExp(`[${CONTROL_CHARACTER_SET}]`, 'gu');
}
