/** Parsers for option values that commander hands over one string at a time. */

/** A repeatable option: each occurrence adds its value (`--label a=1 --label b=2`). */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A comma-separated list, trimmed, without empty items (`--scopes a, b`). */
export const commaList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
