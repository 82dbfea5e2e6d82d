import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/docker-engine.sh', import.meta.url));

/** Starts the tests' Docker engine unless it runs (scripts/docker-engine.sh); its env file. */
export function engineEnv(): Record<string, string> {
  const file = execFileSync('bash', [SCRIPT, 'start'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}
