import Table from 'cli-table3';
import { CliError, exitCodeFor } from './cli-error.js';
import { escapeControls } from './terminal-text.js';

/**
 * One JSON document with --json, readable text otherwise. Readable text never carries control
 * characters from the server to the terminal (see terminal-text.ts); nor does JSON: the same
 * escapes are valid JSON string escapes, so the document keeps its meaning.
 */
export class Output {
  constructor(readonly json: boolean) {}

  ok(data: unknown, human: () => string): void {
    process.stdout.write(
      this.json
        ? `${escapeControls(JSON.stringify({ ok: true, data }))}\n`
        : `${escapeControls(human(), true)}\n`,
    );
  }

  /** A listing: the data itself with --json; for people, a table of its rows. */
  listing<T>(data: unknown, rows: readonly T[], columns: readonly Column<T>[]): void {
    this.ok(data, () => columnTable(rows, columns));
  }

  /** Long waits: progress on stderr, and only for people (never in --json). */
  progress(line: string): void {
    if (!this.json) process.stderr.write(`${escapeControls(line)}\n`);
  }

  fail(error: unknown): number {
    const e =
      error instanceof CliError
        ? error
        : new CliError('ERROR', error instanceof Error ? error.message : String(error));
    if (this.json) {
      process.stdout.write(
        `${escapeControls(JSON.stringify({ ok: false, error: { code: e.code, message: e.message, data: e.data } }))}\n`,
      );
    } else {
      const scopes = e.data.requiredScopes
        ? ` (required: ${(e.data.requiredScopes as string[]).join(', ') || '-'}; granted: ${((e.data.grantedScopes as string[]) ?? []).join(', ') || '-'})`
        : '';
      // Each field problem on a line of its own: "Input is invalid" alone says nothing useful.
      const issues = Array.isArray(e.data.issues)
        ? (e.data.issues as { path?: unknown; message?: unknown }[])
            .map(
              (i) =>
                `\n  ${escapeControls(`${String(i.path ?? '-')}: ${String(i.message ?? '')}`)}`,
            )
            .join('')
        : '';
      process.stderr.write(
        `slipway: ${escapeControls(`${e.code}: ${e.message.split('\n')[0]}${scopes}`)}${issues}\n`,
      );
    }
    return exitCodeFor(e.code);
  }
}

export function table(head: string[], rows: unknown[][]): string {
  const t = new Table({ head, style: { head: [], border: [] } });
  for (const row of rows)
    t.push(row.map((c) => (c === null || c === undefined ? '-' : escapeControls(String(c)))));
  return t.toString();
}

/** A column of a listing: its header, and what each row shows under it. */
export type Column<T> = readonly [header: string, cell: (row: T) => unknown];

/** A table whose columns each say their header and cell together, so the two cannot drift. */
export function columnTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  return table(
    columns.map(([header]) => header),
    rows.map((row) => columns.map(([, cell]) => cell(row))),
  );
}

export function keyValues(entries: [string, unknown][]): string {
  const width = Math.max(...entries.map(([k]) => k.length));
  return entries
    .map(
      ([k, v]) =>
        `${k.padEnd(width)}  ${v === null || v === undefined ? '-' : typeof v === 'object' ? JSON.stringify(v) : escapeControls(String(v))}`,
    )
    .join('\n');
}
