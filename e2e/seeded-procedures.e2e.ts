import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cookieAuth, signUp } from './support/identity.js';
import { procedureClient, ProcedureError, type SlipwayClient } from './support/procedure-client.js';
import { D1, D2, D3, seed, SERVER_ID, SERVICE_ID, serviceWithHistory } from './support/seed.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Procedure tests seeded with events: the history is appended straight to the store, then the
 * read procedures are asked through the typed client, as any caller of the API would.
 */
describe('read procedures over a seeded history (typed client)', () => {
  let t: TestApp;
  let owner: SlipwayClient;

  beforeAll(async () => {
    t = await startTestApp();
    owner = procedureClient(t.url, cookieAuth((await signUp(t.url, 'owner@example.com')).cookie));
    await seed(t, serviceWithHistory());
  });
  afterAll(() => t.close());

  it('lists the history newest first, filtered by status', async () => {
    const all = await owner.recentDeployments({});
    expect(all.items.map((d) => [d.id, d.status])).toEqual([
      [D3, 'queued'],
      [D2, 'failed'],
      [D1, 'succeeded'],
    ]);
    const failed = await owner.recentDeployments({ status: 'failed' });
    expect(failed.items.map((d) => d.id)).toEqual([D2]);
  });

  it('details a failed deployment: its reason, failed step and step detail', async () => {
    const d = await owner.deploymentDetails({ deploymentId: D2 });
    expect(d).toMatchObject({ status: 'failed', failureReason: 'image pull failed' });
    expect(d.steps).toEqual([expect.objectContaining({ step: 'pull', ok: false })]);
  });

  it('shows the service on its server: the image of the last success, the latest deployment', async () => {
    const inventory = await owner.infrastructureInventory();
    expect(inventory.totals).toEqual({
      servers: 1,
      services: 1,
      serversAwaitingHostKeyApproval: 0,
    });
    const [server] = inventory.servers;
    expect(server).toMatchObject({ id: SERVER_ID, name: 'edge-1' });
    expect(server.services).toEqual([
      expect.objectContaining({
        id: SERVICE_ID,
        currentImage: 'ghcr.io/acme/api:1.0.0',
        health: 'deploying',
        latestDeployment: expect.objectContaining({ id: D3, status: 'queued' }),
      }),
    ]);
  });

  it('answers an unknown deployment with NOT_FOUND in the documented shape', async () => {
    const refused = await owner
      .deploymentDetails({ deploymentId: '00000000-0000-4000-8000-0000000000ff' })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ProcedureError);
    expect(refused).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
  });
});
