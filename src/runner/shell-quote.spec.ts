import { execFileSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { commandLine, quote } from './shell-quote.js';

describe('quoting for the remote shell', () => {
  it.each([
    'plain',
    '; rm -rf /',
    '$(touch /tmp/pwned)',
    '`id`',
    'it\'s "quoted"',
    'line one\nline two',
    '$HOME && echo',
    '',
  ])('passes %j through sh unchanged as one argument', (value) => {
    const out = execFileSync('/bin/sh', ['-c', `printf '%s' ${quote(value)}`]).toString();
    expect(out).toBe(value);
  });

  it('quotes every word of an argument vector', () => {
    const out = execFileSync('/bin/sh', [
      '-c',
      `${commandLine(['printf', '%s|', 'a b', ';x'])}`,
    ]).toString();
    expect(out).toBe('a b|;x|');
    expect(() => quote('a\0b')).toThrow();
  });
});
