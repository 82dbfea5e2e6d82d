import { describe, expect, it } from '@jest/globals';
import type { AppConfig } from '../../config/app-config.js';
import { ComposePolicyGuard } from './compose-policy.guard.js';

const guard = new ComposePolicyGuard({ runner: { remoteDir: '/srv/slipway' } } as AppConfig);
const server = { name: 'web-1', composePolicy: { allow: [], setAt: null, setBy: null } };
const image = 'image: ghcr.io/acme/api:1.0.0';

describe('the compose policy of a server on a definition', () => {
  it('names what a valid definition asks for that the server does not allow', () => {
    const refused = guard.refusals(
      `services:\n  api:\n    ${image}\n    privileged: true\n`,
      server,
      [],
    );
    expect(refused.map((v) => v.capability)).toEqual(['privileged']);
    expect(guard.refusals(`services:\n  api:\n    ${image}\n`, server, [])).toEqual([]);
  });

  it('refuses a definition it cannot judge (an old snapshot that no longer validates)', () => {
    const old = `services:\n  api:\n    ${image}\n    networks: [slipway-edge]\nnetworks:\n  slipway-edge: {}\n`;
    expect(() => guard.refusals(old, server, [])).toThrow(
      expect.objectContaining({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/cannot be judged/),
      }),
    );
  });
});
