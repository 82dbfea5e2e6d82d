import { conflict } from '../../common/app-error.js';
import { DomainClaimed, DomainReleased } from '../../events/edge.events.js';
import type { Decider } from '../../storage/decider.js';

export interface DomainClaimState {
  /** The service the domain is routed to, if any. */
  serviceId: string | null;
}

export type DomainClaimCommand =
  | { kind: 'claim'; domain: string; serviceId: string }
  | { kind: 'release'; domain: string; serviceId: string };

/**
 * One domain on its own stream: a service claims it before routing it, so two services never
 * route the same domain however their commands interleave. Claiming one's own domain again and
 * releasing a domain one does not hold change nothing.
 */
export const domainClaimDecider: Decider<DomainClaimState, DomainClaimCommand> = {
  initialState: () => ({ serviceId: null }),
  evolve(state, event) {
    if (event.type === DomainClaimed.type)
      return { serviceId: DomainClaimed.dataOf(event).serviceId };
    if (
      event.type === DomainReleased.type &&
      DomainReleased.dataOf(event).serviceId === state.serviceId
    )
      return { serviceId: null };
    return state;
  },
  decide(command, state) {
    const { domain, serviceId } = command;
    if (command.kind === 'release')
      return state.serviceId === serviceId ? [DomainReleased({ domain, serviceId })] : [];
    if (state.serviceId === serviceId) return [];
    if (state.serviceId)
      throw conflict(`The domain ${domain} is routed to another service`, { domain });
    return [DomainClaimed({ domain, serviceId })];
  },
};
