import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsIn, IsISO8601, IsString, Matches, MaxLength } from 'class-validator';
import type { AuditEntryDoc } from '../../../projections/audit-trail.projection.js';
import { badRequest } from '../../common/app-error.js';
import { READ_STORE, type Filter, type ReadStore } from '../../readstore/read-store.port.js';
import { PageCursor, PageLimit } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import type { AuditEntryView } from './audit-entry-view.js';
import { EntryResolver } from './entry-resolver.js';

export const OUTCOMES = ['succeeded', 'denied', 'rejected'] as const;

/** Filters of `auditTrail`; all optional, combined with AND. */
export class AuditTrailInput {
  /** Principal id of the actor (user or agent). */
  @Omittable()
  @IsString()
  @MaxLength(128)
  actor?: string;

  /** Event type, e.g. `TokenRevoked`, `AccessDenied`. */
  @Omittable()
  @Matches(/^[A-Za-z][A-Za-z0-9]{0,63}$/, { message: 'action must be an event type name' })
  action?: string;

  /** Target stream, e.g. `token-<id>`. */
  @Omittable()
  @IsString()
  @MaxLength(200)
  stream?: string;

  /** Resource: a stream, or `procedure:<name>` / `route:<METHOD /path>` for refusals. */
  @Omittable()
  @IsString()
  @MaxLength(300)
  resource?: string;

  /** Everything one request did (its `X-Request-Id`). */
  @Omittable()
  @IsString()
  @MaxLength(128)
  requestId?: string;

  @Omittable()
  @IsIn(OUTCOMES)
  outcome?: (typeof OUTCOMES)[number];

  /** Inclusive lower bound on the time recorded (ISO 8601). */
  @Omittable()
  @IsISO8601({ strict: true })
  from?: string;

  /** Exclusive upper bound on the time recorded (ISO 8601). */
  @Omittable()
  @IsISO8601({ strict: true })
  to?: string;

  @PageLimit(500)
  limit?: number;

  @PageCursor()
  cursor?: string;
}

export interface AuditTrailPage {
  entries: AuditEntryView[];
  nextCursor: string | null;
}

export class AuditTrail extends ProcedureQuery<AuditTrailInput, AuditTrailPage> {}

/** Newest first over `audit_trail`, with actor labels and token names resolved per page. */
@Procedure.read(AuditTrail, {
  name: 'auditTrail',
  roles: ADMINS,
  scopes: ['audit:read'],
  input: AuditTrailInput,
  description:
    'Who did what, when, with which credential, from where: every event and refused call, newest first; filters by actor, action, stream, resource, outcome and time.',
})
export class AuditTrailHandler implements IQueryHandler<AuditTrail> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly resolver: EntryResolver,
  ) {}

  async execute({ input }: AuditTrail): Promise<AuditTrailPage> {
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
