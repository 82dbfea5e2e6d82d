import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFUSE_LINKS_OUT } from './checkout-links.js';

/** A checkout with the given links (name → target), run through the script with a real sh. */
async function check(links: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const root = mkdtempSync(join(tmpdir(), 'slipway-checkout-'));
  const src = join(root, 'git', 'src');
  mkdirSync(join(src, '.git'), { recursive: true });
  mkdirSync(join(src, 'app'));
  writeFileSync(join(src, 'app', 'Dockerfile'), 'FROM scratch\n');
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(src, name));
  try {
    return await new Promise((resolve) =>
      execFile('sh', ['-c', REFUSE_LINKS_OUT, 'slipway', src], (error, _out, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      ),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('links in a checkout (the server, before anything builds or mounts it)', () => {
  it('keeps a checkout without links, and links that stay inside it', async () => {
    expect((await check({})).code).toBe(0);
    expect((await check({ current: 'app', df: 'app/Dockerfile', dangling: 'app/none' })).code).toBe(
      0,
    );
    // git's own directory is not looked in.
    expect((await check({ '.git/hooks-link': '/etc' })).code).toBe(0);
  });

  it('refuses a link that climbs out, or points anywhere on the server', async () => {
    for (const target of ['../../..', '../..', '/', '/var/run/docker.sock', 'app/../../x']) {
      const { code, stderr } = await check({ leak: target });
      expect([target, code]).toEqual([target, 1]);
      expect(stderr).toContain('leads out of the repository: refused');
    }
  });
});
