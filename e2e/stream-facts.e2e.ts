import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ServiceDoc } from '../projections/services.projection.js';
import { READ_STORE, type ReadStore } from '../src/readstore/read-store.port.js';
import { data, readyService } from './support/deployments.js';
import { call, cookieAuth, memberWithRole, signUp } from './support/identity.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A command decides on what its streams say, not on a read model that may lag behind them
 * (another replica's projections, a rebuild under way): with the service's read model held at
 * what it said before a change, a deployment right after the change uses the new settings.
 */
describe('preconditions are folded from the streams', () => {
  let t: TestApp;
  let owner: Record<string, string>;
  let serviceId: string;

  beforeAll(async () => {
    t = await startTestApp({ notes: false });
    owner = cookieAuth((await signUp(t.url, 'owner@example.com')).cookie);
    ({ serviceId } = await readyService(t.url, owner));
  }, 60_000);
  afterAll(async () => t?.close());

  /** Changes the service, then puts its read model back as it was before the change. */
  async function changeBehindTheReadModel(changes: Record<string, string>): Promise<void> {
    const services = t.app.get<ReadStore>(READ_STORE).collection<ServiceDoc>('services');
    const before = (await services.get(serviceId))!;
    data(await call(t.url, 'POST', 'updateService', owner, { serviceId, ...changes }));
    await services.put(before);
  }

  it('deploys an image of the repository the service was just moved to', async () => {
    await changeBehindTheReadModel({ imageRepository: 'ghcr.io/acme/moved' });
    const stale = data<{ imageRepository: string }>(
      await call(t.url, 'GET', 'serviceDetails', owner, { serviceId }),
    );
    expect(stale.imageRepository).toBe('ghcr.io/acme/api');
    const moved = await call(t.url, 'POST', 'triggerDeploy', owner, {
      serviceId,
      imageTag: 'ghcr.io/acme/moved:1.0.0',
    });
    expect(data<{ status: string }>(moved).status).toBe('queued');
    const old = await call(t.url, 'POST', 'triggerDeploy', owner, {
      serviceId,
      imageTag: 'ghcr.io/acme/api:1.0.0',
    });
    expect(old.status).toBe(400);
  });

  it('asks for an approval once the rule just changed says so', async () => {
    await changeBehindTheReadModel({ approvalRule: 'all-but-admins' });
    const operator = await memberWithRole(t.url, owner, 'operator@example.com', 'operator');
    const answer = await call(t.url, 'POST', 'triggerDeploy', operator, {
      serviceId,
      imageTag: 'ghcr.io/acme/moved:1.0.1',
    });
    expect(data<{ status: string }>(answer).status).toBe('pending_approval');
  });
});
