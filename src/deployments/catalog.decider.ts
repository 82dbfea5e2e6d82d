import { conflict, notFound } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import { ServiceRegistered, ServiceUpdated } from './deployments.events.js';

export interface CatalogState {
  services: Map<string, { key: string }>;
}

export type CatalogCommand =
  | { kind: 'register'; event: Parameters<typeof ServiceRegistered>[0] }
  | { kind: 'update'; event: Parameters<typeof ServiceUpdated>[0] };

const keyOf = (name: string, environment: string) => `${environment}/${name}`;

/** Services: one per name and environment. */
export const catalogDecider: Decider<CatalogState, CatalogCommand> = {
  initialState: () => ({ services: new Map() }),
  evolve(state: CatalogState, event: EventLike): CatalogState {
    if (event.type !== ServiceRegistered.type) return state;
    const services = new Map(state.services);
    const d = event.data as Record<string, string>;
    services.set(d.serviceId, { key: keyOf(d.name, d.environment) });
    return { services };
  },
  decide(command: CatalogCommand, state: CatalogState) {
    if (command.kind === 'register') {
      const key = keyOf(command.event.name, command.event.environment);
      if ([...state.services.values()].some((s) => s.key === key)) {
        throw conflict(
          `A service ${command.event.name} already exists in ${command.event.environment}`,
        );
      }
      return [ServiceRegistered(command.event)];
    }
    if (!state.services.has(command.event.serviceId)) throw notFound('No such service');
    return Object.keys(command.event.changes).length ? [ServiceUpdated(command.event)] : [];
  },
};
