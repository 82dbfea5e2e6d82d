import { Findings, isMap, type ComposeMap } from './findings.js';

/**
 * How one key of a Compose object is judged: `free` when it cannot reach beyond an ordinary
 * container (resources, names, commands, health checks...), or a judge that records what it asks
 * of the host. A key absent from its table is not a Compose key: it is refused, so a key Compose
 * learns later is refused until it is judged here.
 */
export type Judge =
  'free' | ((value: unknown, path: string, f: Findings, owner: ComposeMap) => void);

export type KeyTable = Readonly<Record<string, Judge>>;

/** Judges every key of one Compose object; `x-` extensions are ignored by Compose, and here. */
export function judgeKeys(value: unknown, table: KeyTable, path: string, f: Findings): void {
  if (!isMap(value)) return;
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('x-')) continue;
    const judge = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
    const at = `${path}.${key}`;
    if (judge === undefined) f.unknownKeys.push(at);
    else if (judge !== 'free') judge(child, at, f, value);
  }
}

/** Judges each named definition of a map (`networks: {a: {...}}`) with one table. */
export function judgeEach(value: unknown, table: KeyTable, path: string, f: Findings): void {
  if (!isMap(value)) return;
  for (const [name, definition] of Object.entries(value))
    judgeKeys(definition, table, `${path}.${name}`, f);
}
