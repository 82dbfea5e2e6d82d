import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cli, cliHome } from './support/cli.js';

const HOSTILE = 'evil\u001b]0;owned\u0007\u001b[2J\u202etxt.exe';

/**
 * A server that answers every call with names full of terminal controls: what a compromised or
 * older server (whose data predates the name rules) could send.
 */
describe('the CLI prints names from the server with their control characters escaped', () => {
  let server: Server;
  let url: string;
  const home = cliHome();

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          result: {
            data: {
              json: {
                items: [{ id: 'a1', name: HOSTILE, preset: 'agent:full', status: 'active' }],
                nextCursor: null,
              },
            },
          },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('agents list', async () => {
    const res = await cli(home, ['agents', 'list'], {
      SLIPWAY_URL: url,
      SLIPWAY_TOKEN: `slw_${'A'.repeat(49)}`,
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('evil\\u001b]0;owned\\u0007\\u001b[2J\\u202etxt.exe');
    expect(res.stdout).not.toContain('\u001b');
    expect(res.stdout).not.toContain('\u202e');
  });
});
