import { Inject, Injectable } from '@nestjs/common';
import type { ApiTokenDoc } from '../../projections/api-tokens.projection.js';
import type { PrincipalDoc } from '../../projections/principals.projection.js';
import { notFound } from '../common/app-error.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';
import type { Ranked } from './authority.js';

/** Read-model lookups the access commands share; unknown ids are NOT_FOUND. */
@Injectable()
export class PrincipalLookup {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async principal(id: string): Promise<PrincipalDoc> {
    const doc = await this.reads.collection<PrincipalDoc>('principals').get(id);
    if (!doc) throw notFound('No such principal');
    return doc;
  }

  async token(id: string): Promise<ApiTokenDoc> {
    const doc = await this.reads.collection<ApiTokenDoc>('api_tokens').get(id);
    if (!doc) throw notFound('No such token');
    return doc;
  }

  /** The principal as the rank rule sees it: an agent carries its creator's current role. */
  async ranked(doc: PrincipalDoc): Promise<Ranked> {
    const creator =
      doc.kind === 'agent' && doc.createdBy
        ? await this.reads.collection<PrincipalDoc>('principals').get(doc.createdBy)
        : null;
    return {
      id: doc.id,
      kind: doc.kind,
      role: doc.role,
      creatorRole: creator?.kind === 'user' ? creator.role : null,
    };
  }
}
