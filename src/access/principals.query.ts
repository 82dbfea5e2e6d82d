import { Inject, Injectable } from '@nestjs/common';
import type { PrincipalDoc } from '../../projections/principals.projection.js';
import { PersonalData } from '../privacy/personal-data.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';

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

@Injectable()
export class ListPrincipalsHandler {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly personal: PersonalData,
  ) {}

  async execute(kind: 'user' | 'agent', limit: number, cursor?: string): Promise<MembersPage> {
    const page = await this.reads
      .collection<PrincipalDoc>('principals')
      .find({ kind }, { sort: { createdAt: 1 }, limit, cursor });
    return {
      items: page.items.map((p) => ({
        id: p.id,
        kind: p.kind,
        name: this.personal.reveal(p.name) ?? '',
        email: this.personal.reveal(p.email),
        role: p.role,
        preset: p.preset,
        status: p.status,
        createdAt: p.createdAt,
        invalidated: p.invalidatedAt !== null,
      })),
      nextCursor: page.nextCursor,
    };
  }
}
