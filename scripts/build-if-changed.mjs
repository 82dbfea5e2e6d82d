// `npm start` builds only when a source is newer than the last build (tsc takes ~10 s, the web
// bundle ~10 s; the server starts in ~1-2 s). Deleting dist/ forces both builds.
// `node scripts/build-if-changed.mjs web` builds only the web bundle (the browser tests do).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const configs = ['tsconfig.json', 'package-lock.json'];
const SOURCE = /\.(ts|tsx|json|css|html|svg)$/;

const targets = {
  server: {
    output: 'dist/src/main.js',
    sources: ['src', 'projections', 'contract', 'bench', 'e2e/fixtures'],
    configs: [...configs, 'tsconfig.build.json'],
    script: 'build',
  },
  // The bundle's types come from src/ too, but only its own files change what it contains.
  web: {
    output: 'dist/web/index.html',
    sources: ['web'],
    configs,
    script: 'build:web',
  },
};

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return SOURCE.test(path) ? stat.mtimeMs : 0;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const only = process.argv[2];
for (const [name, target] of Object.entries(targets)) {
  if (only && only !== name) continue;
  const output = join(root, target.output);
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const changed = Math.max(
    ...target.sources.map((dir) => newest(join(root, dir))),
    ...target.configs.map((file) => statSync(join(root, file)).mtimeMs),
  );
  if (changed > built) {
    console.error(
      built === 0 ? `Building ${name} (first start)...` : `Sources changed: building ${name}...`,
    );
    execFileSync('npm', ['run', target.script], { cwd: root, stdio: 'inherit' });
  }
}
