import { describe, expect, it } from '@jest/globals';
import { errorForLog, logText } from './log-text.js';

describe('log text', () => {
  it('quotes user text on one line with every control character escaped', () => {
    expect(logText('name\n[ERROR] forged\u001b[2J\u202e\u0085')).toBe(
      '"name\\n[ERROR] forged\\u001b[2J\\u202e\\u0085"',
    );
  });

  it('logs an error as its quoted message and its stack frames', () => {
    const error = new Error('no service "x"\nFAKE: line');
    const lines = errorForLog(error).split('\n');
    expect(lines[0]).toBe('Error: "no service \\"x\\"\\nFAKE: line"');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => /^\s+at /.test(line))).toBe(true);
    expect(errorForLog('plain\nvalue')).toBe('"plain\\nvalue"');
  });
});
