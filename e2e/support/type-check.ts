import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

/** What the project's TypeScript reports for the tsconfig.json in `dir` ('' when clean). */
export function typeCheck(dir: string): string {
  try {
    execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', cwd: dir });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}
