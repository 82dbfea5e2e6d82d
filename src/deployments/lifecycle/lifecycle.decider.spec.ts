import { describe, expect, it } from '@jest/globals';
import { decideFrom } from '../../storage/decider.js';
import {
  ServerHostKeyApproved,
  ServerRegistered,
  ServiceRegistered,
  ServiceUpdated,
} from '../../events/deployments.events.js';
import {
  ServerDecommissioned,
  ServerHostKeyRepinned,
  ServerServiceAttached,
  ServerServiceDetached,
  ServerUpdated,
  ServiceArchived,
} from '../../events/lifecycle.events.js';
import { catalogDecider } from '../catalog.decider.js';
import { fleetDecider } from '../fleet.decider.js';
import { serverDecider } from '../server.decider.js';
import { serviceDecider } from '../service.decider.js';
import { OWNER } from '../testing/rule-subjects.js';
import { SERVER, SERVICE as service } from '../testing/catalog-fixtures.js';

const server = { ...SERVER, hostKeyFingerprint: 'SHA256:old' };
const registered = ServerRegistered(server);
const approved = ServerHostKeyApproved({ serverId: 's1', fingerprint: 'SHA256:old' });

describe('server lifecycle', () => {
  it('Given an approved server, When its user and labels change, Then ServerUpdated', () => {
    const changes = { sshUser: 'ops', labels: { tier: 'web' } };
    expect(
      decideFrom(serverDecider, [registered, approved], {
        kind: 'update',
        serverId: 's1',
        changes,
      }),
    ).toEqual([ServerUpdated({ serverId: 's1', changes })]);
  });

  it('Given an approved server, When a new host key is pinned, Then it needs approval again, as pinned', () => {
    const repin = { kind: 'repinHostKey' as const, serverId: 's1', fingerprint: 'SHA256:new' };
    const repinned = ServerHostKeyRepinned({
      serverId: 's1',
      fingerprint: 'SHA256:new',
      previousFingerprint: 'SHA256:old',
    });
    expect(decideFrom(serverDecider, [registered, approved], repin)).toEqual([repinned]);
    const history = [registered, approved, repinned];
    expect(() =>
      decideFrom(serverDecider, history, {
        kind: 'approveHostKey',
        serverId: 's1',
        fingerprint: 'SHA256:old',
      }),
    ).toThrow(/does not match/);
    expect(
      decideFrom(serverDecider, history, {
        kind: 'approveHostKey',
        serverId: 's1',
        fingerprint: 'SHA256:new',
      }),
    ).toEqual([ServerHostKeyApproved({ serverId: 's1', fingerprint: 'SHA256:new' })]);
    // Pinning the key already pinned changes nothing.
    expect(decideFrom(serverDecider, history, repin)).toEqual([]);
  });

  it('Given a decommissioned server, When changed, Then refused; decommissioning again is no event', () => {
    const history = [registered, approved, ServerDecommissioned({ serverId: 's1' })];
    expect(() =>
      decideFrom(serverDecider, history, {
        kind: 'update',
        serverId: 's1',
        changes: { sshPort: 2 },
      }),
    ).toThrow(/decommissioned/);
    expect(decideFrom(serverDecider, history, { kind: 'decommission', serverId: 's1' })).toEqual(
      [],
    );
  });

  it('Given a server on the legacy fleet stream, When decommissioned, Then the same rules apply there', () => {
    const history = [registered, ServerDecommissioned({ serverId: 's1' })];
    expect(() =>
      decideFrom(fleetDecider, history, {
        kind: 'approveHostKey',
        serverId: 's1',
        fingerprint: 'SHA256:old',
      }),
    ).toThrow(/decommissioned/);
  });
});

describe('services attached to a server', () => {
  const attach = { kind: 'attachService' as const, serverId: 's1', serviceId: 'svc' };
  const detach = { kind: 'detachService' as const, serverId: 's1', serviceId: 'svc' };
  const decommission = { kind: 'decommission' as const, serverId: 's1' };
  const attached = ServerServiceAttached({ serverId: 's1', serviceId: 'svc' });
  const detached = ServerServiceDetached({ serverId: 's1', serviceId: 'svc' });
  const decommissioned = ServerDecommissioned({ serverId: 's1' });

  it('Given a server, When a service is attached, Then ServerServiceAttached; again, no event', () => {
    expect(decideFrom(serverDecider, [registered], attach)).toEqual([attached]);
    expect(decideFrom(serverDecider, [registered, attached], attach)).toEqual([]);
  });

  it('Given a decommissioned server, When a service is attached, Then refused (also on the fleet stream)', () => {
    const history = [registered, decommissioned];
    expect(() => decideFrom(serverDecider, history, attach)).toThrow(/decommissioned/);
    expect(() => decideFrom(fleetDecider, history, attach)).toThrow(/decommissioned/);
  });

  it('Given an attached service, When decommissioned, Then refused; once detached or archived, decommissioned', () => {
    const held = expect.objectContaining({
      code: 'CONFLICT',
      data: { serverId: 's1', services: [{ serviceId: 'svc' }] },
    });
    expect(() => decideFrom(serverDecider, [registered, attached], decommission)).toThrow(held);
    expect(() => decideFrom(fleetDecider, [registered, attached], decommission)).toThrow(held);
    expect(decideFrom(serverDecider, [registered, attached], detach)).toEqual([detached]);
    expect(decideFrom(serverDecider, [registered, attached, detached], decommission)).toEqual([
      decommissioned,
    ]);
    expect(
      decideFrom(serverDecider, [registered, attached], { ...decommission, archived: ['svc'] }),
    ).toEqual([decommissioned]);
  });

  it('Given a decommissioned server, When a service is detached, Then allowed; an unknown one is no event', () => {
    const history = [registered, attached, decommissioned];
    expect(decideFrom(serverDecider, history, detach)).toEqual([detached]);
    expect(decideFrom(serverDecider, history, { ...detach, serviceId: 'other' })).toEqual([]);
  });
});

describe('service archiving', () => {
  const archive = { kind: 'archive' as const, event: { serviceId: 'svc', composeDown: false } };
  it('Given a service, When archived, Then ServiceArchived; again, no event', () => {
    expect(decideFrom(serviceDecider, [ServiceRegistered(service)], archive)).toEqual([
      ServiceArchived({ serviceId: 'svc', composeDown: false }),
    ]);
    const history = [ServiceRegistered(service), ServiceArchived(archive.event)];
    expect(decideFrom(serviceDecider, history, archive)).toEqual([]);
  });

  it('Given an archived service, When updated, Then refused (on its stream and the legacy catalog)', () => {
    const update = {
      kind: 'update' as const,
      event: { serviceId: 'svc', changes: { approvalRule: 'agents' as const } },
      by: OWNER,
    };
    const history = [ServiceRegistered(service), ServiceArchived(archive.event)];
    expect(() => decideFrom(serviceDecider, history, update)).toThrow(/archived/);
    expect(() => decideFrom(catalogDecider, history, update)).toThrow(/archived/);
    expect(decideFrom(catalogDecider, [ServiceRegistered(service)], update)).toEqual([
      ServiceUpdated(update.event),
    ]);
  });
});
