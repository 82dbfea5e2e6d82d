import { Inject, Injectable } from '@nestjs/common';
import type { ServiceDoc } from '../../projections/services.projection.js';
import { badRequest } from '../common/app-error.js';
import type { Filter } from '../readstore/read-store.port.js';
import { inProjects } from '../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';

/** Most services a list can be narrowed to at once (the read store's `$in` bound). */
const MAX_SERVICES = 500;

/**
 * For lists of what services have (deployments, backups, hooks, approvals): the condition that
 * keeps a caller to the services of the projects it reads. No condition for a caller who reads
 * every project.
 */
@Injectable()
export class ServicesInProjects {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async filter(readable: readonly string[] | null | undefined): Promise<Filter> {
    if (!readable) return {};
    const services = this.reads.collection<ServiceDoc>('services');
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await services.find(inProjects(readable), { limit: 1000, cursor });
      ids.push(...page.items.map((s) => s.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor && ids.length <= MAX_SERVICES);
    if (ids.length > MAX_SERVICES) {
      throw badRequest(
        `The projects you read hold more than ${MAX_SERVICES} services: list them per service`,
        [{ path: 'serviceId', message: 'give a service' }],
      );
    }
    return { serviceId: { $in: ids } };
  }
}
