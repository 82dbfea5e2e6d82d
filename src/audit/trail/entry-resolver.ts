import { Inject, Injectable } from '@nestjs/common';
import type { ApiTokenDoc } from '../../../projections/api-tokens.projection.js';
import type { AuditEntryDoc } from '../../../projections/audit-trail.projection.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { PersonalData } from '../../privacy/personal-data.js';
import { ActorLabels } from './actor-labels.js';
import { auditEntryView, type AuditEntryView } from './audit-entry-view.js';

/** Turns stored entries into readable ones: actor labels, token names, opened addresses. */
@Injectable()
export class EntryResolver {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly personal: PersonalData,
  ) {}

  async resolve(docs: AuditEntryDoc[]): Promise<AuditEntryView[]> {
    const labels = new ActorLabels(this.reads, this.personal);
    const tokens = await this.tokenNames(docs);
    const views: AuditEntryView[] = [];
    for (const doc of docs) {
      views.push(
        auditEntryView(doc, {
          label: await labels.of(doc.actorId, doc.actorKind),
          tokenName: doc.tokenId ? (tokens.get(doc.tokenId) ?? null) : null,
          clientAddress: await this.personal.reveal(doc.clientAddress),
        }),
      );
    }
    return views;
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
