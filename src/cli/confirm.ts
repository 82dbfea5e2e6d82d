import { createInterface } from 'node:readline/promises';
import { CliError } from './cli-error.js';
import { escapeControls } from './terminal-text.js';

/** State changes need --yes; without it a terminal is asked, anything else is refused. */
export async function confirm(yes: boolean | undefined, what: string): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    throw new CliError(
      'CONFIRMATION_REQUIRED',
      `${what}: pass --yes to confirm (no terminal to ask)`,
    );
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${escapeControls(what)}? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim()))
      throw new CliError('CANCELLED', 'Not confirmed; nothing was changed');
  } finally {
    rl.close();
  }
}
