import { conflict, notFound } from '../common/app-error.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import type { Decider } from '../storage/decider.js';
import { ServiceRegistered, ServiceUpdated } from '../events/deployments.events.js';
import { ServiceArchived } from '../events/lifecycle.events.js';

export interface ServiceState {
  serviceId: string | null;
  archived?: boolean;
}

export type ServiceUpdate =
  | { kind: 'update'; event: Parameters<typeof ServiceUpdated>[0] }
  | { kind: 'archive'; event: Parameters<typeof ServiceArchived>[0] };
export type ServiceCommand =
  { kind: 'register'; event: Parameters<typeof ServiceRegistered>[0] } | ServiceUpdate;

export const serviceTakenMessage = (name: string, environment: string) =>
  `A service ${name} already exists in ${environment}`;

/**
 * An update or archiving of a known service (shared with the legacy fold): an empty change is no
 * event, archiving twice is one event, an archived service takes no change.
 */
export function decideServiceUpdate(
  command: ServiceUpdate,
  known: boolean,
  archived = false,
): PendingEvent[] {
  if (!known) throw notFound('No such service');
  if (command.kind === 'archive') return archived ? [] : [ServiceArchived(command.event)];
  if (archived) throw conflict('The service is archived', { serviceId: command.event.serviceId });
  return Object.keys(command.event.changes).length ? [ServiceUpdated(command.event)] : [];
}

/**
 * One service on the stream of its name and environment (`service-<sha256(env/name)>`):
 * registering claims the stream, so the pair stays unique without one stream that every
 * registration contends on.
 */
export const serviceDecider: Decider<ServiceState, ServiceCommand> = {
  initialState: () => ({ serviceId: null }),
  evolve: (state, event) => {
    if (event.type === ServiceRegistered.type && !state.serviceId)
      return { serviceId: ServiceRegistered.dataOf(event).serviceId };
    if (event.type === ServiceArchived.type) return { ...state, archived: true };
    return state;
  },
  decide(command, state) {
    if (command.kind !== 'register') {
      return decideServiceUpdate(
        command,
        state.serviceId === command.event.serviceId,
        state.archived,
      );
    }
    if (state.serviceId) {
      throw conflict(serviceTakenMessage(command.event.name, command.event.environment));
    }
    return [ServiceRegistered(command.event)];
  },
};
