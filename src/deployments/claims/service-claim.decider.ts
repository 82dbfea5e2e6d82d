import type { AppError } from '../../common/app-error.js';
import type { EventDefinition } from '../../eventstore/define-event.js';
import type { Decider } from '../../storage/decider.js';

export interface ServiceClaimState {
  /** The service that holds the name, if any. */
  serviceId: string | null;
}

/** `name`: the domain, the compose project, ... that the claim is of. */
export interface ServiceClaimCommand {
  kind: 'claim' | 'release';
  name: string;
  serviceId: string;
}

/**
 * A name one service at a time may hold, decided on the name's own stream: a service claims it
 * before it uses it, so two services never hold it however their commands interleave. Claiming
 * one's own again and releasing what one does not hold change nothing; `field` is the name's
 * field in the events.
 */
export function serviceClaimDecider<D extends { serviceId: string }>(
  field: Exclude<keyof D & string, 'serviceId'>,
  claimed: EventDefinition<D>,
  released: EventDefinition<D>,
  taken: (name: string) => AppError,
): Decider<ServiceClaimState, ServiceClaimCommand> {
  return {
    initialState: () => ({ serviceId: null }),
    evolve(state, event) {
      if (event.type === claimed.type) return { serviceId: claimed.dataOf(event).serviceId };
      if (event.type === released.type && released.dataOf(event).serviceId === state.serviceId)
        return { serviceId: null };
      return state;
    },
    decide({ kind, name, serviceId }, state) {
      // D is the name's field and the service: what the events of a claim carry.
      const data = { [field]: name, serviceId } as unknown as D;
      if (kind === 'release') return state.serviceId === serviceId ? [released(data)] : [];
      if (state.serviceId === serviceId) return [];
      if (state.serviceId) throw taken(name);
      return [claimed(data)];
    },
  };
}
