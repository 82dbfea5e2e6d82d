import { Inject, Injectable } from '@nestjs/common';
import type { AuditEntryDoc } from '../../../projections/audit-trail.projection.js';
import { badRequest } from '../../common/app-error.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';
import type { AuditTrailInput } from './audit-trail.inputs.js';
import type { AuditEntryView } from './audit-entry-view.js';
import { EntryResolver } from './entry-resolver.js';

/** Newest first over `audit_trail`, with actor labels and token names resolved per page. */
@Injectable()
export class AuditTrailHandler {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly resolver: EntryResolver,
  ) {}

  async execute(input: AuditTrailInput): Promise<{
    entries: AuditEntryView[];
    nextCursor: string | null;
  }> {
    const page = await this.reads.collection<AuditEntryDoc>('audit_trail').find(filterOf(input), {
      sort: { position: -1 },
      limit: input.limit ?? 50,
      cursor: input.cursor,
    });
    return { entries: await this.resolver.resolve(page.items), nextCursor: page.nextCursor };
  }
}

function filterOf(input: AuditTrailInput): Filter {
  const filter: Filter = {};
  if (input.actor) filter.actorId = input.actor;
  if (input.action) filter.type = input.action;
  if (input.stream) filter.stream = input.stream;
  if (input.resource) filter.resource = input.resource;
  if (input.outcome) filter.outcome = input.outcome;
  if (input.requestId) filter.requestId = input.requestId;
  if (input.from || input.to) {
    const from = input.from ? new Date(input.from).toISOString() : undefined;
    const to = input.to ? new Date(input.to).toISOString() : undefined;
    if (from && to && from >= to) {
      throw badRequest('from must be before to', [{ path: 'to', message: 'must be after from' }]);
    }
    filter.at = { ...(from ? { $gte: from } : {}), ...(to ? { $lt: to } : {}) };
  }
  return filter;
}
