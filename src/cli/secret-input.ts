import { read } from 'read';
import { CliError } from './cli-error.js';

/** Everything on standard input, for `--password-stdin` (only its first line counts). */
async function stdinFirstLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0];
}

/**
 * A password, in order: `--password-stdin`, the `--password` flag, `SLIPWAY_PASSWORD`, or a
 * prompt that does not echo (on a terminal). A flag is visible in shell history and `ps`;
 * the others are not.
 */
export async function passwordFrom(opts: {
  password?: string;
  passwordStdin?: boolean;
}): Promise<string> {
  if (opts.passwordStdin && opts.password)
    throw new CliError('BAD_USAGE', 'Give one of --password and --password-stdin');
  const password =
    (opts.passwordStdin ? await stdinFirstLine() : undefined) ??
    opts.password ??
    (process.env.SLIPWAY_PASSWORD || undefined) ??
    (process.stdin.isTTY
      ? String(await read({ prompt: 'Password: ', silent: true, output: process.stderr }))
      : undefined);
  if (!password)
    throw new CliError(
      'BAD_USAGE',
      'No password: give --password-stdin, set SLIPWAY_PASSWORD, or run on a terminal to be asked',
    );
  return password;
}
