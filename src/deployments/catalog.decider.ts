import type { Decider, EventLike } from '../storage/decider.js';
import {
  ServiceRegistered,
  ServiceUpdated,
  type RecordedEnvVar,
} from '../events/deployments.events.js';
import { ServiceArchived } from '../events/lifecycle.events.js';
import { domainsOf } from './routes/route-rules.js';
import type { GuardedSettings } from './approval-rules.js';
import {
  decideServiceUpdate,
  recordedEnv,
  recordedGuard,
  type ServiceUpdate,
} from './service.decider.js';

export interface CatalogState {
  services: Map<
    string,
    {
      key: string;
      archived?: boolean;
      env?: RecordedEnvVar[];
      serverId?: string;
      domains?: string[];
      guarded?: GuardedSettings;
    }
  >;
}

const keyOf = (name: string, environment: string) => `${environment}/${name}`;

/** Whether a service registered on the legacy `catalog` stream holds this name here. */
export const catalogHasService = (state: CatalogState, name: string, environment: string) =>
  [...state.services.values()].some((s) => s.key === keyOf(name, environment));

/**
 * The `catalog` stream of stores written before services had their own streams: it no longer
 * takes registrations; its services' updates are still decided and recorded there.
 */
export const catalogDecider: Decider<CatalogState, ServiceUpdate> = {
  initialState: () => ({ services: new Map() }),
  evolve(state: CatalogState, event: EventLike): CatalogState {
    if (event.type === ServiceArchived.type) {
      const { serviceId } = ServiceArchived.dataOf(event);
      const known = state.services.get(serviceId);
      if (!known) return state;
      const services = new Map(state.services);
      services.set(serviceId, { ...known, archived: true });
      return { services };
    }
    if (event.type === ServiceUpdated.type) {
      const { serviceId, changes } = ServiceUpdated.dataOf(event);
      const known = state.services.get(serviceId);
      if (!known) return state;
      const services = new Map(state.services);
      services.set(serviceId, {
        ...known,
        env: changes.env ?? known.env,
        serverId: changes.serverId ?? known.serverId,
        domains: changes.routes ? domainsOf(changes.routes) : known.domains,
        guarded: recordedGuard(event, known.guarded),
      });
      return { services };
    }
    if (event.type !== ServiceRegistered.type) return state;
    const services = new Map(state.services);
    const d = ServiceRegistered.dataOf(event);
    services.set(d.serviceId, {
      key: keyOf(d.name, d.environment),
      env: recordedEnv(event),
      serverId: d.serverId,
      domains: domainsOf(d.routes),
      guarded: recordedGuard(event),
    });
    return { services };
  },
  decide: (command, state) =>
    decideServiceUpdate(command, state.services.get(command.event.serviceId)),
};
