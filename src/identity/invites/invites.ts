import { Inject } from '@nestjs/common';
import type { IQueryHandler } from '@nestjs/cqrs';
import { IsIn } from 'class-validator';
import { Omittable } from '../../common/omittable.js';
import type { InviteDoc } from '../../../projections/invites.projection.js';
import { PageInput } from '../../common/page.input.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { expiringStatusFilter, statusAt } from '../../readstore/expiring-status.js';
import { readPage } from '../../readstore/read-page.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';

export const INVITE_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

export class InvitesInput extends PageInput {
  @Omittable()
  @IsIn(INVITE_STATUSES)
  status?: (typeof INVITE_STATUSES)[number];
}

export interface InviteView {
  inviteId: string;
  email: string | null;
  role: string;
  status: (typeof INVITE_STATUSES)[number];
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  acceptedUserId: string | null;
  acceptedAt: string | null;
  revokedAt: string | null;
}

export interface InvitesPage {
  items: InviteView[];
  nextCursor: string | null;
}

export class Invites extends ProcedureQuery<InvitesInput, InvitesPage> {}

/** Invites newest first; a pending one past its expiry reads `expired`. Never the link. */
@Procedure.read(Invites, {
  name: 'invites',
  roles: ADMINS,
  scopes: ['members:read'],
  input: InvitesInput,
  description:
    'Invites newest first, with status pending, accepted, revoked or expired; never the link.',
})
export class InvitesHandler implements IQueryHandler<Invites> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly personal: PersonalData,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input }: Invites): Promise<InvitesPage> {
    const now = this.clock.now().toISOString();
    const filter = expiringStatusFilter(input.status, now);
    return readPage(
      this.reads.collection<InviteDoc>('invites'),
      { filter, sort: { createdAt: -1 }, defaultLimit: 20 },
      input,
      async (d): Promise<InviteView> => ({
        inviteId: d.id,
        email: await this.personal.reveal(d.email),
        role: d.role,
        status: statusAt(d, now),
        invitedBy: d.invitedBy,
        createdAt: d.createdAt,
        expiresAt: d.expiresAt,
        acceptedUserId: d.acceptedUserId,
        acceptedAt: d.acceptedAt,
        revokedAt: d.revokedAt,
      }),
    );
  }
}
