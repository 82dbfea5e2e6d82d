import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/slipway.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: {
    ok: boolean;
    data?: Record<string, unknown>;
    error?: { code: string; message: string; data: Record<string, unknown> };
  };
}

/** A throwaway home for the CLI: its own config directory and a `slipway` on a PATH of its own. */
export function cliHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'slipway-cli-'));
  mkdirSync(join(home, 'bin'));
  writeFileSync(
    join(home, 'bin', 'slipway'),
    `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`,
  );
  chmodSync(join(home, 'bin', 'slipway'), 0o755);
  return home;
}

function settle(resolve: (r: CliResult) => void) {
  return (error: Error | null, stdout: string, stderr: string) => {
    let json: CliResult['json'] = { ok: false };
    try {
      json = JSON.parse(stdout);
    } catch {
      // human output
    }
    resolve({
      code: error ? Number((error as { code?: number }).code ?? 1) : 0,
      stdout,
      stderr,
      json,
    });
  };
}

/** The environment the CLI runs with in tests: its own config home, no SLIPWAY_URL/TOKEN. */
const cliEnv = (home: string, env: Record<string, string>) => ({
  ...process.env,
  XDG_CONFIG_HOME: join(home, 'config'),
  SLIPWAY_URL: '',
  SLIPWAY_TOKEN: '',
  ...env,
});

/** The real binary, left running: for a command a test talks to while it waits. */
export function spawnCli(home: string, args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [bin, ...args], { cwd: home, env: cliEnv(home, {}) });
}

/** The real binary as a subprocess, with no SLIPWAY_URL/SLIPWAY_TOKEN unless given. */
export function cli(
  home: string,
  args: string[],
  env: Record<string, string> = {},
  /** Written to the program's standard input, which is then closed. */
  stdin = '',
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: home,
        env: cliEnv(home, env),
      },
      settle(resolve),
    );
    child.stdin?.end(stdin);
  });
}

/** A printed command line run through /bin/sh (with --json appended), `slipway` on PATH. */
export function shell(
  home: string,
  line: string,
  cwd: string,
  env: Record<string, string>,
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', `${line} --json`],
      {
        cwd,
        env: {
          ...process.env,
          PATH: `${join(home, 'bin')}:${process.env.PATH}`,
          XDG_CONFIG_HOME: join(home, 'config'),
          ...env,
        },
      },
      settle(resolve),
    );
  });
}
