import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../kernel/request-context.js';
import { domainStream } from '../../events/edge.events.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { domainClaimDecider } from './domain-claim.decider.js';

/** Claims and releases of domains, each on the domain's own stream (domainClaimDecider). */
@Injectable()
export class DomainClaims {
  constructor(private readonly runner: DeciderRunner) {}

  /**
   * Claims each domain for the service; if one is held by another service, the ones this call
   * claimed are released again and the refusal (409) is thrown.
   */
  async claim(serviceId: string, domains: string[], ctx: RequestContext): Promise<void> {
    const claimed: string[] = [];
    try {
      for (const domain of domains) {
        const decision = await this.run('claim', domain, serviceId, ctx);
        if (decision.events.length) claimed.push(domain);
      }
    } catch (error) {
      await this.release(serviceId, claimed, ctx);
      throw error;
    }
  }

  async release(serviceId: string, domains: string[], ctx: RequestContext): Promise<void> {
    for (const domain of domains) await this.run('release', domain, serviceId, ctx);
  }

  private run(kind: 'claim' | 'release', domain: string, serviceId: string, ctx: RequestContext) {
    return this.runner.run(
      domainStream(domain),
      domainClaimDecider,
      { kind, name: domain, serviceId },
      ctx,
      50,
    );
  }
}
