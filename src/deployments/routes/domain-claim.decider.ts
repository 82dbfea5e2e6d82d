import { conflict } from '../../common/app-error.js';
import { DomainClaimed, DomainReleased } from '../../events/edge.events.js';
import { serviceClaimDecider } from '../claims/service-claim.decider.js';

/**
 * One domain on its own stream: a service claims it before routing it, so two services never
 * route the same domain however their commands interleave.
 */
export const domainClaimDecider = serviceClaimDecider(
  'domain',
  DomainClaimed,
  DomainReleased,
  (domain) => conflict(`The domain ${domain} is routed to another service`, { domain }),
);
