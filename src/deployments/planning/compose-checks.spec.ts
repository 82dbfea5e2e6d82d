import { describe, expect, it } from '@jest/globals';
import { validateCompose } from '../compose.js';
import { composeChecks } from './preflight-checks.js';

const checks = (compose: string, variables: Record<string, string> = {}) =>
  composeChecks(validateCompose(compose, new Map(Object.entries(variables))), 'acme/api').map(
    (c) => [c.check, c.status],
  );

describe("a plan's compose checks", () => {
  it('pass a compose that runs the service image, with every variable it reads set', () => {
    expect(checks('services: {api: {image: "acme/api:${TAG}"}}', { TAG: '1' })).toEqual([
      ['compose-valid', 'ok'],
      ['compose-names-image', 'ok'],
    ]);
  });

  it('warn of a variable the service does not set, naming it', () => {
    const result = composeChecks(
      validateCompose('services: {api: {image: "acme/api:1", command: "${ARGS}"}}', new Map()),
      null,
    );
    expect(result).toEqual([
      expect.objectContaining({
        check: 'compose-valid',
        status: 'warn',
        detail: expect.stringContaining('reads ARGS, which the service does not set'),
      }),
    ]);
  });

  it('fail a deployment of a tag when a service builds its image: no context comes with it', () => {
    expect(checks('services: {api: {build: .}, cache: {image: "redis:7.2"}}')).toEqual([
      ['compose-valid', 'ok'],
      ['compose-builds', 'fail'],
      ['compose-names-image', 'fail'],
    ]);
  });
});
