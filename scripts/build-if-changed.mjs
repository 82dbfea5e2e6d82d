// `npm start` builds only when a source is newer than the last build (tsc takes ~10 s; the
// server starts in ~1-2 s). Deleting dist/ forces a build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const output = join(root, 'dist/src/main.js');
const sources = ['src', 'projections', 'contract', 'bench', 'e2e/fixtures'];
const configs = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith('.ts') || path.endsWith('.json') ? stat.mtimeMs : 0;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const built = existsSync(output) ? statSync(output).mtimeMs : 0;
const changed = Math.max(
  ...sources.map((dir) => newest(join(root, dir))),
  ...configs.map((file) => statSync(join(root, file)).mtimeMs),
);
if (changed > built) {
  console.error(built === 0 ? 'Building (first start)...' : 'Sources changed: building...');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
