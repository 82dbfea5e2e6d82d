import { describe, expect, it } from '@jest/globals';
import { given } from '../../../projections/testing/given-events.js';
import { servicesProjection, type ServiceDoc } from '../../../projections/services.projection.js';
import { ServiceRegistered, ServiceUpdated } from '../../events/deployments.events.js';
import { ServiceArchived } from '../../events/lifecycle.events.js';
import { streamDocuments } from './stream-documents.js';

const services = streamDocuments<ServiceDoc>(servicesProjection, 'services');
const fold = (events: ReturnType<typeof given>) =>
  events.reduce((s, e) => services.evolve(s, e), services.initialState());

const registered = (serviceId: string, name: string) =>
  ServiceRegistered({
    serviceId,
    name,
    environment: 'production',
    serverId: 's1',
    imageRepository: `ghcr.io/acme/${name}`,
    compose: 'services: {}',
    env: [],
    approvalRule: 'none',
    healthCheckUrl: null,
    backupCommand: null,
  });

describe('streamDocuments: a stream folded through a projection’s own handlers', () => {
  it('given a registration, an update and an archiving, the service is as the stream says', () => {
    const state = fold(
      given([
        registered('svc', 'api'),
        ServiceUpdated({ serviceId: 'svc', changes: { imageRepository: 'ghcr.io/acme/api2' } }),
        ServiceArchived({ serviceId: 'svc', composeDown: false }),
      ]),
    );
    expect(state.get('svc')).toMatchObject({
      name: 'api',
      imageRepository: 'ghcr.io/acme/api2',
      status: 'archived',
    });
  });

  it('given a legacy stream of several services, each is kept apart by its id', () => {
    const state = fold(
      given([
        registered('a', 'api'),
        registered('b', 'web'),
        ServiceUpdated({ serviceId: 'b', changes: { approvalRule: 'all-but-admins' } }),
      ]),
    );
    expect(state.get('a')?.approvalRule).toBe('none');
    expect(state.get('b')?.approvalRule).toBe('all-but-admins');
  });

  it('given events of other types, nothing changes and earlier states stay as they were', () => {
    const first = fold(given([registered('svc', 'api')]));
    const later = services.evolve(first, {
      ...given([ServiceUpdated({ serviceId: 'svc', changes: { compose: 'x' } })])[0],
    });
    expect(first.get('svc')?.compose).toBe('services: {}');
    expect(later.get('svc')?.compose).toBe('x');
    const unrelated = services.evolve(later, { type: 'SomethingElse', data: {} });
    expect(unrelated).toBe(later);
  });

  it('decides nothing', () => {
    expect(services.decide(undefined as never, services.initialState())).toEqual([]);
  });
});
