import type { PrincipalDoc } from '../../projections/principals.projection.js';
import type { PersonalData } from '../privacy/personal-data.js';
import type { ReadStore } from '../readstore/read-store.port.js';
import type { PageInput } from './page.input.js';

export interface MemberView {
  id: string;
  kind: 'user' | 'agent';
  name: string;
  email: string | null;
  role: string;
  preset: string | null;
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
  { limit, cursor }: PageInput,
): Promise<MembersPage> {
  const page = await reads
    .collection<PrincipalDoc>('principals')
    .find({ kind }, { sort: { createdAt: 1 }, limit: limit ?? 50, cursor });
  return {
    items: page.items.map((p) => ({
      id: p.id,
      kind: p.kind,
      name: personal.reveal(p.name) ?? '',
      email: personal.reveal(p.email),
      role: p.role,
      preset: p.preset,
      status: p.status,
      createdAt: p.createdAt,
      invalidated: p.invalidatedAt !== null,
    })),
    nextCursor: page.nextCursor,
  };
}
