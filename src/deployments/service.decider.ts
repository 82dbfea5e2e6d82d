import { conflict, notFound } from '../common/app-error.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import type { Decider } from '../storage/decider.js';
import { ServiceRegistered, ServiceUpdated } from '../events/deployments.events.js';

export interface ServiceState {
  serviceId: string | null;
}

export type ServiceUpdate = { kind: 'update'; event: Parameters<typeof ServiceUpdated>[0] };
export type ServiceCommand =
  { kind: 'register'; event: Parameters<typeof ServiceRegistered>[0] } | ServiceUpdate;

export const serviceTakenMessage = (name: string, environment: string) =>
  `A service ${name} already exists in ${environment}`;

/** An update of a known service; an empty change is no event (shared with the legacy fold). */
export function decideServiceUpdate(command: ServiceUpdate, known: boolean): PendingEvent[] {
  if (!known) throw notFound('No such service');
  return Object.keys(command.event.changes).length ? [ServiceUpdated(command.event)] : [];
}

/**
 * One service on the stream of its name and environment (`service-<sha256(env/name)>`):
 * registering claims the stream, so the pair stays unique without one stream that every
 * registration contends on.
 */
export const serviceDecider: Decider<ServiceState, ServiceCommand> = {
  initialState: () => ({ serviceId: null }),
  evolve: (state, event) =>
    event.type === ServiceRegistered.type && !state.serviceId
      ? { serviceId: ServiceRegistered.dataOf(event).serviceId }
      : state,
  decide(command, state) {
    if (command.kind === 'update') {
      return decideServiceUpdate(command, state.serviceId === command.event.serviceId);
    }
    if (state.serviceId) {
      throw conflict(serviceTakenMessage(command.event.name, command.event.environment));
    }
    return [ServiceRegistered(command.event)];
  },
};
