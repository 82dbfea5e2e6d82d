import { read } from 'read';
import { CliError } from './cli-error.js';

/** Everything on standard input, for `--password-stdin` (only its first line counts). */
export async function stdinFirstLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0];
}

/** A value from its flag, else its environment variable, else a prompt on a terminal. */
export async function flagEnvOrPrompt(
  given: string | undefined,
  variable: string,
  prompt: string,
  silent = false,
): Promise<string | undefined> {
  if (given !== undefined) return given;
  const fromEnv = process.env[variable];
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) return undefined;
  return String(await read({ prompt, silent, output: process.stderr }));
}

/** `--email`-like values: flag, environment variable or prompt, and a clear refusal if none. */
export async function valueFrom(given: string | undefined, variable: string, prompt: string) {
  const value = await flagEnvOrPrompt(given, variable, prompt);
  if (!value)
    throw new CliError('BAD_USAGE', `Give ${prompt.replace(/: $/, '')} (flag or ${variable})`);
  return value;
}

/** The password options a command may take (`--password` only where a flag is allowed). */
export interface PasswordOptions {
  password?: string;
  passwordStdin?: boolean;
}

/**
 * A password, in order: `--password-stdin`, the `--password` flag, `SLIPWAY_PASSWORD`, or a
 * prompt that does not echo (on a terminal). A flag is visible in shell history and `ps`;
 * the others are not.
 */
export async function passwordFrom(opts: PasswordOptions): Promise<string> {
  if (opts.passwordStdin && opts.password)
    throw new CliError('BAD_USAGE', 'Give one of --password and --password-stdin');
  const given = opts.passwordStdin ? await stdinFirstLine() : opts.password;
  const password = await flagEnvOrPrompt(given, 'SLIPWAY_PASSWORD', 'Password: ', true);
  if (!password)
    throw new CliError(
      'BAD_USAGE',
      'No password: give --password-stdin, set SLIPWAY_PASSWORD, or run on a terminal to be asked',
    );
  return password;
}

/**
 * A 6-digit code: `--totp-code`, else `SLIPWAY_TOTP_CODE`, else a prompt on a terminal; `refusal`
 * names what is missing when there is none.
 */
export async function totpCodeFrom(
  given: string | undefined,
  refusal = new CliError(
    'BAD_USAGE',
    'No code: give --totp-code, set SLIPWAY_TOTP_CODE, or run on a terminal to be asked',
  ),
): Promise<string> {
  const code = await flagEnvOrPrompt(given, 'SLIPWAY_TOTP_CODE', 'Code from the authenticator: ');
  if (!code) throw refusal;
  return code.trim();
}
