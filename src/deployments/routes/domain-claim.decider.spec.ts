import { describe, it } from '@jest/globals';
import { DomainClaimed, DomainReleased } from '../../events/edge.events.js';
import { given } from '../../storage/testing/given.js';
import { domainClaimDecider as domains } from './domain-claim.decider.js';

const domain = 'app.example.com';
const claim = (serviceId: string) => ({ kind: 'claim' as const, name: domain, serviceId });
const release = (serviceId: string) => ({ kind: 'release' as const, name: domain, serviceId });

describe('domain claim decider', () => {
  it('gives a free domain to the first service that claims it', () => {
    given(domains)
      .when(claim('s1'))
      .then(DomainClaimed({ domain, serviceId: 's1' }));
  });

  it('refuses a domain another service holds', () => {
    given(domains, DomainClaimed({ domain, serviceId: 's1' }))
      .when(claim('s2'))
      .thenRefused('CONFLICT', /app\.example\.com is routed to another service/);
  });

  it('changes nothing when the holder claims it again', () => {
    given(domains, DomainClaimed({ domain, serviceId: 's1' }))
      .when(claim('s1'))
      .thenNothing();
  });

  it('frees the domain when its holder releases it, for another service to claim', () => {
    given(domains, DomainClaimed({ domain, serviceId: 's1' }))
      .when(release('s1'))
      .then(DomainReleased({ domain, serviceId: 's1' }));
    given(
      domains,
      DomainClaimed({ domain, serviceId: 's1' }),
      DomainReleased({ domain, serviceId: 's1' }),
    )
      .when(claim('s2'))
      .then(DomainClaimed({ domain, serviceId: 's2' }));
  });

  it('ignores a release by a service that does not hold the domain', () => {
    given(domains, DomainClaimed({ domain, serviceId: 's1' }))
      .when(release('s2'))
      .thenNothing();
    given(domains).when(release('s1')).thenNothing();
  });
});
