import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { CliError } from './cli-error.js';
import { columnTable, keyValues, Output, table } from './output.js';
import { escapeControls } from './terminal-text.js';

const HOSTILE = 'evil\u001b]0;owned\u0007\u001b[2J\u009b1m\u202etxt.exe\u007f';
// eslint-disable-next-line no-control-regex -- looking for raw control characters is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/u;

describe('CLI output never passes control characters from the server to the terminal', () => {
  let written: string[];
  beforeEach(() => {
    written = [];
    const capture = (chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    };
    jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    jest.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('escapes ESC, BEL, C1, DEL and bidi overrides visibly', () => {
    expect(escapeControls(HOSTILE)).toBe(
      'evil\\u001b]0;owned\\u0007\\u001b[2J\\u009b1m\\u202etxt.exe\\u007f',
    );
    expect(escapeControls('two\nlines\tand\r', false)).toBe('two\\nlines\\tand\\r');
    expect(escapeControls('two\nlines', true)).toBe('two\nlines');
    expect(escapeControls('plain é 日本 😀')).toBe('plain é 日本 😀');
  });

  it('shows a hostile name in a table, a key/value list and free text escaped', () => {
    const out = new Output(false);
    out.ok({}, () => table(['id', 'name'], [['a1', HOSTILE]]));
    out.ok({}, () => keyValues([['name', HOSTILE]]));
    out.ok({}, () => `Agent ${HOSTILE} created\nsecond line`);
    out.progress(`[pull] ${HOSTILE}\nforged line`);
    const text = written.join('');
    expect(text).not.toMatch(RAW);
    expect(text).toContain('evil\\u001b]0;owned\\u0007\\u001b[2J');
    expect(text).toContain('created\nsecond line');
    expect(text).toContain('\\nforged line');
  });

  it('keeps --json documents equal to the data while escaping them', () => {
    new Output(true).ok({ name: HOSTILE }, () => '');
    expect(written.join('')).not.toMatch(RAW);
    expect(JSON.parse(written.join(''))).toEqual({ ok: true, data: { name: HOSTILE } });
  });

  it('escapes error messages from the server', () => {
    new Output(false).fail(new CliError('BAD_REQUEST', `no such agent ${HOSTILE}`));
    new Output(true).fail(new CliError('BAD_REQUEST', `no such agent ${HOSTILE}`));
    const [human, json] = written;
    expect(human).not.toMatch(RAW);
    expect(human).toContain('\\u001b[2J');
    expect(json).not.toMatch(RAW);
    expect(JSON.parse(json).error.message).toBe(`no such agent ${HOSTILE}`);
  });
});

describe('columnTable', () => {
  it('lays out columns given as header and cell the same as a table of headers and rows', () => {
    const rows = [
      { id: 'a1', size: 3, gone: null },
      { id: 'b2', size: 0, gone: undefined },
    ];
    expect(
      columnTable(rows, [
        ['id', (r) => r.id],
        ['size', (r) => r.size],
        ['gone', (r) => r.gone],
      ]),
    ).toBe(
      table(
        ['id', 'size', 'gone'],
        rows.map((r) => [r.id, r.size, r.gone]),
      ),
    );
    expect(columnTable([], [['id', () => 'x']])).toBe(table(['id'], []));
  });
});
