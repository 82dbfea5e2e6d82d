// Jest global teardown: stops the Docker engine by pid if this run started it, else nothing.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/docker-engine.sh', import.meta.url));

export default function stopTheEngine() {
  const owner = process.env.SLIPWAY_DOCKER_RUN;
  if (!owner) return;
  execFileSync('bash', [SCRIPT, 'stop', '--owner', owner], { stdio: 'inherit', timeout: 60_000 });
}
