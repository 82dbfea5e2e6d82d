import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ApiTokenDoc } from '../../../projections/api-tokens.projection.js';
import type { AuditEntryDoc } from '../../../projections/audit-trail.projection.js';
import { badRequest } from '../../common/app-error.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';
import { PersonalData } from '../privacy/personal-data.js';
import type { AuditTrailInput } from './audit-trail.inputs.js';
import { auditEntryView, type AuditEntryView } from './audit-entry-view.js';
import { ActorLabels } from './actor-labels.js';

export class AuditTrailQuery extends Query<{
  entries: AuditEntryView[];
  nextCursor: string | null;
}> {
  constructor(readonly input: AuditTrailInput) {
    super();
  }
}

/** Newest first over `audit_trail`, with actor labels and token names resolved per page. */
@QueryHandler(AuditTrailQuery)
export class AuditTrailHandler implements IQueryHandler<AuditTrailQuery> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly personal: PersonalData,
  ) {}

  async execute({ input }: AuditTrailQuery) {
    const page = await this.reads.collection<AuditEntryDoc>('audit_trail').find(filterOf(input), {
      sort: { position: -1 },
      limit: input.limit ?? 50,
      cursor: input.cursor,
    });
    const labels = new ActorLabels(this.reads, this.personal);
    const tokens = await this.tokenNames(page.items);
    const entries: AuditEntryView[] = [];
    for (const doc of page.items) {
      entries.push(
        auditEntryView(doc, {
          label: await labels.of(doc.actorId, doc.actorKind),
          tokenName: doc.tokenId ? (tokens.get(doc.tokenId) ?? null) : null,
          clientAddress: this.personal.reveal(doc.clientAddress),
        }),
      );
    }
    return { entries, nextCursor: page.nextCursor };
  }

  private async tokenNames(docs: AuditEntryDoc[]): Promise<Map<string, string>> {
    const ids = [...new Set(docs.map((d) => d.tokenId).filter((id): id is string => !!id))];
    const names = new Map<string, string>();
    const tokens = this.reads.collection<ApiTokenDoc>('api_tokens');
    for (const id of ids) {
      const token = await tokens.get(id);
      if (token) names.set(id, token.name);
    }
    return names;
  }
}

function filterOf(input: AuditTrailInput): Filter {
  const filter: Filter = {};
  if (input.actor) filter.actorId = input.actor;
  if (input.action) filter.type = input.action;
  if (input.stream) filter.stream = input.stream;
  if (input.resource) filter.resource = input.resource;
  if (input.outcome) filter.outcome = input.outcome;
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
