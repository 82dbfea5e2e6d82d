import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ComposeProjectReleased, composeProjectStream } from '../src/events/deployments.events.js';
import { systemContext } from '../src/kernel/request-context.js';
import { EventWriter } from '../src/storage/event-writer.js';
import { COMPOSE, data, readyService } from './support/deployments.js';
import { call, cookieAuth, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A service's containers, networks and volumes on a server are named after its compose project,
 * its name and environment joined with `-` (a `.` becomes `-`). Two services whose names and
 * environments join to the same project would run, back up and tear down each other's: the
 * second is refused, however the registrations interleave, and also beside a service
 * registered before projects were claimed.
 */
describe('compose project names', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let serverId: string;

  const register = (name: string, environment: string) =>
    call(t.url, 'POST', 'registerService', owner, {
      name,
      environment,
      serverId,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
    });

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serverId } = await readyService(t.url, owner, { name: 'first' }));
  }, 60_000);
  afterAll(async () => t?.close());

  it('refuses a second service whose name and environment join to a project taken', async () => {
    data(await register('a-b', 'c'));
    for (const [name, environment] of [
      ['a', 'b-c'],
      ['a.b', 'c'],
    ]) {
      const refused = await register(name!, environment!);
      expect([refused.status, refused.body.error.data.project]).toEqual([409, 'a-b-c']);
    }
    // Refused before anything was kept: the name it named is still free.
    data(await register('a', 'other'));
  });

  it('lets exactly one of many colliding registrations through', async () => {
    const names: [string, string][] = [
      ['race-x-y', 'z'],
      ['race-x', 'y-z'],
      ['race', 'x-y-z'],
      ['race.x-y', 'z'],
      ['race-x.y', 'z'],
    ];
    const answers = await Promise.all(names.map(([n, e]) => register(n, e)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('refuses one beside a service registered before projects were claimed', async () => {
    const earlier = data<{ serviceId: string }>(await register('old-app', 'prod'));
    // As registered before: the service is there, its project claimed by nothing.
    await t.app
      .get(EventWriter)
      .append(
        composeProjectStream('old-app-prod'),
        [ComposeProjectReleased({ project: 'old-app-prod', serviceId: earlier.serviceId })],
        'any',
        systemContext('e2e'),
      );
    const refused = await register('old', 'app-prod');
    expect([refused.status, refused.body.error.data.project]).toEqual([409, 'old-app-prod']);
  });
});
