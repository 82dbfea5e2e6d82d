/** Values a compose file's `${NAME}` references read: the service's variables, nothing else. */
export type ComposeVariables = ReadonlyMap<string, string>;

/** What interpolating one string found: its value, or why Compose would stop. */
export type Interpolated = { ok: true; value: string } | { ok: false; message: string };

const NAME = /^[_a-zA-Z][_a-zA-Z0-9]*/;
const OPERATORS = [':-', ':?', ':+', '-', '?', '+'] as const;
type Operator = (typeof OPERATORS)[number];
/** Defaults inside defaults: real files nest one or two; the bound keeps recursion shallow. */
const MAX_NESTING = 8;

/**
 * Interpolates one value as Compose does: `$$` is a `$`; `$NAME` and `${NAME}` read a variable;
 * `${NAME:-default}` / `${NAME-default}` give a default when it is unset or empty / unset;
 * `${NAME:?message}` / `${NAME?message}` require it; `${NAME:+alternative}` /
 * `${NAME+alternative}` give the alternative when it is set (and not empty). Defaults,
 * messages and alternatives are interpolated themselves, so `${A:-${B}}` nests. An unset
 * variable without a default is empty and reported through `missing`. A `$` followed by
 * anything else stays as written; a `${` that does not close, or names no variable, is refused.
 */
export function interpolate(
  text: string,
  variables: ComposeVariables,
  missing: Set<string>,
): Interpolated {
  if (!text.includes('$')) return { ok: true, value: text };
  const scanned = scan(text, 0, variables, missing, 0);
  return scanned.ok ? { ok: true, value: scanned.value } : scanned;
}

type Scanned = { ok: true; value: string; end: number } | { ok: false; message: string };

/** Reads from `start` to the end of text, or (inside braces) to the `}` that closes them. */
function scan(
  text: string,
  start: number,
  variables: ComposeVariables,
  missing: Set<string>,
  /** How many `${…}` enclose this text: 0 at the top. */
  depth: number,
): Scanned {
  const inBraces = depth > 0;
  let out = '';
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (inBraces && c === '}') return { ok: true, value: out, end: i + 1 };
    if (c !== '$') {
      out += c;
      i += 1;
      continue;
    }
    const next = text[i + 1];
    if (next === '$') {
      out += '$';
      i += 2;
    } else if (next === '{') {
      if (depth >= MAX_NESTING)
        return { ok: false, message: `nests "\${" deeper than ${MAX_NESTING} levels` };
      const braced = substitute(text, i + 2, variables, missing, depth + 1);
      if (!braced.ok) return braced;
      out += braced.value;
      i = braced.end;
    } else {
      const name = NAME.exec(text.slice(i + 1, i + 257))?.[0];
      if (name === undefined) {
        out += '$';
        i += 1;
      } else {
        out += lookup(name, variables, missing);
        i += 1 + name.length;
      }
    }
  }
  if (inBraces) return { ok: false, message: `has a "\${" that does not close` };
  return { ok: true, value: out, end: i };
}

/** `NAME}` or `NAME<operator>word}` from `start` (just after `${`). */
function substitute(
  text: string,
  start: number,
  variables: ComposeVariables,
  missing: Set<string>,
  depth: number,
): Scanned {
  const name = NAME.exec(text.slice(start, start + 256))?.[0];
  if (name === undefined) return { ok: false, message: 'has a "${" that names no variable' };
  let i = start + name.length;
  if (text[i] === '}') return { ok: true, value: lookup(name, variables, missing), end: i + 1 };
  if (i >= text.length) return { ok: false, message: `has a "\${" that does not close` };
  const operator = OPERATORS.find((op) => text.startsWith(op, i));
  if (operator === undefined)
    return { ok: false, message: `has an invalid interpolation of ${name}` };
  i += operator.length;
  // The word is read whatever the variable holds: its own references are reported alike.
  const wordMissing = new Set<string>();
  const word = scan(text, i, variables, wordMissing, depth);
  if (!word.ok) return word;
  const value = variables.get(name);
  const applied = apply(operator, name, value, word.value);
  if (!applied.ok) return applied;
  if (applied.usedWord) wordMissing.forEach((n) => missing.add(n));
  return { ok: true, value: applied.value, end: word.end };
}

function apply(
  operator: Operator,
  name: string,
  value: string | undefined,
  word: string,
): { ok: true; value: string; usedWord: boolean } | { ok: false; message: string } {
  const unset = value === undefined;
  const empty = unset || value === '';
  switch (operator) {
    case ':-':
      return empty ? { ok: true, value: word, usedWord: true } : kept(value);
    case '-':
      return unset ? { ok: true, value: word, usedWord: true } : kept(value);
    case ':?':
    case '?':
      if (operator === ':?' ? empty : unset)
        return {
          ok: false,
          message: `requires the variable ${name}${word ? `: ${bounded(word)}` : ''}`,
        };
      return kept(value!);
    case ':+':
      return empty ? kept('') : { ok: true, value: word, usedWord: true };
    case '+':
      return unset ? kept('') : { ok: true, value: word, usedWord: true };
  }
}

function kept(value: string): { ok: true; value: string; usedWord: false } {
  return { ok: true, value, usedWord: false };
}

function lookup(name: string, variables: ComposeVariables, missing: Set<string>): string {
  const value = variables.get(name);
  if (value === undefined) missing.add(name);
  return value ?? '';
}

/** A message written in the compose file, echoed: one line, at most 200 characters. */
function bounded(text: string): string {
  const line = text.replace(/\p{Cc}+/gu, ' ');
  return JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}…` : line);
}
