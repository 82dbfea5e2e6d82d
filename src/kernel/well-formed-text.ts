import { badRequest, type FieldIssue } from '../common/app-error.js';

/**
 * With the `u` flag a surrogate pair is one code point, so this matches only a lone surrogate:
 * what `String.prototype.isWellFormed` (ES2024, beyond this project's lib) reports.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATES = /\p{Surrogate}/gu;
const MAX_ISSUES = 20;
const MESSAGE = 'must be well-formed Unicode text (a lone UTF-16 surrogate is not)';

const isIllFormed = (text: string) => LONE_SURROGATE.test(text);

/** The text with each lone surrogate replaced by U+FFFD (`String.prototype.toWellFormed`). */
export const toWellFormed = (text: string) => text.replace(LONE_SURROGATES, '\uFFFD');

/** A key as an issue path can show it: each lone surrogate written as its `\uXXXX` escape. */
const printable = (key: string) =>
  key.replace(LONE_SURROGATES, (s) => `\\u${s.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The dotted paths (`env.0.value`) of every string and object key in a parsed input that is
 * not well-formed Unicode, at most MAX_ISSUES. JSON escapes can carry a lone surrogate that no
 * UTF-8 text can; such a string cannot be stored, hashed, mailed or shown as it was sent.
 */
export function illFormedTextPaths(value: unknown): string[] {
  const paths: string[] = [];
  // `key`: the object key the value was found under, checked when its entry is reached.
  const stack: { value: unknown; path: string; key?: string }[] = [{ value, path: '' }];
  while (stack.length > 0 && paths.length < MAX_ISSUES) {
    const { value: current, path, key } = stack.pop()!;
    if (key !== undefined && isIllFormed(key)) {
      paths.push(path);
    } else if (typeof current === 'string') {
      if (isIllFormed(current)) paths.push(path);
    } else if (current !== null && typeof current === 'object') {
      // Pushed in reverse, so that paths come out in the input's order.
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [name, child] = entries[i];
        const at = path ? `${path}.${printable(name)}` : printable(name);
        stack.push({ value: child, path: at, key: name });
      }
    }
  }
  return paths;
}

/** Refuses, naming each field, any input that holds text that is not well-formed Unicode. */
export function assertWellFormedText(value: unknown): void {
  const paths = illFormedTextPaths(value);
  if (paths.length === 0) return;
  const issues: FieldIssue[] = paths.map((path) => ({ path: path || '(input)', message: MESSAGE }));
  throw badRequest('Input is not well-formed Unicode text', issues);
}
