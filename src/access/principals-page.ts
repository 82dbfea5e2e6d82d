import type { PrincipalDoc } from '../../projections/principals.projection.js';
import type { PersonalData } from '../privacy/personal-data.js';
import { readPage } from '../readstore/read-page.js';
import type { ReadStore } from '../readstore/read-store.port.js';
import type { PageInput } from '../common/page.input.js';

/** Who a principal is, as answers show it (a page of members, the caller's own description). */
export interface PrincipalSummary {
  id: string;
  kind: 'user' | 'agent';
  name: string;
  email: string | null;
  role: string;
  preset: string | null;
}

export interface MemberView extends PrincipalSummary {
  status: string;
  createdAt: string;
  invalidated: boolean;
}

export interface MembersPage {
  items: MemberView[];
  nextCursor: string | null;
}

/** A page of principals of one kind, oldest first (`members`, `agents`; 50 by default). */
export async function principalsPage(
  reads: ReadStore,
  personal: PersonalData,
  kind: 'user' | 'agent',
  request: PageInput,
): Promise<MembersPage> {
  return readPage(
    reads.collection<PrincipalDoc>('principals'),
    { filter: { kind }, sort: { createdAt: 1 }, defaultLimit: 50 },
    request,
    async (p): Promise<MemberView> => ({
      id: p.id,
      kind: p.kind,
      name: (await personal.reveal(p.name)) ?? '',
      email: await personal.reveal(p.email),
      role: p.role,
      preset: p.preset,
      status: p.status,
      createdAt: p.createdAt,
      invalidated: p.invalidatedAt !== null,
    }),
  );
}
