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
 * every project. Narrowed to one service, the list is that service's if the caller reads its
 * project, else empty.
 */
@Injectable()
export class ServicesInProjects {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async filter(
    readable: readonly string[] | null | undefined,
    /** The one service the caller narrows the list to, if any. */
    serviceId?: string,
  ): Promise<Filter> {
    const services = this.reads.collection<ServiceDoc>('services');
    // One condition on `serviceId`, never two spread over each other: the caller's own value
    // replacing the projects' list would read any project's service by its id.
    if (serviceId !== undefined) {
      if (!readable) return { serviceId };
      const service = await services.get(serviceId);
      const reads = !!service && readable.includes(service.projectId);
      return { serviceId: reads ? serviceId : { $in: [] } };
    }
    if (!readable) return {};
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
