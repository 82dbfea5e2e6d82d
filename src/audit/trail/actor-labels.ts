import { principalOf } from '../../access/principal-of.js';
import type { PrincipalDoc } from '../../../projections/principals.projection.js';
import type { ReadStore } from '../../readstore/read-store.port.js';
import type { PersonalData } from '../../privacy/personal-data.js';
import { fixedLabel } from './audit-entry-view.js';

/** Human-readable actor names for one page of entries (each principal read once). */
export class ActorLabels {
  private readonly known = new Map<string, string>();

  constructor(
    private readonly reads: ReadStore,
    private readonly personal: PersonalData,
  ) {}

  async of(principalId: string | null, kind: string): Promise<string> {
    const fixed = fixedLabel(principalId, kind);
    if (fixed !== null || !principalId) return fixed ?? 'anonymous';
    const cached = this.known.get(principalId);
    if (cached !== undefined) return cached;
    const doc = await this.reads.collection<PrincipalDoc>('principals').get(principalId);
    const label = doc ? await this.describe(doc) : `unknown principal ${principalId}`;
    this.known.set(principalId, label);
    return label;
  }

  private async describe(doc: PrincipalDoc): Promise<string> {
    const { kind, name, email } = await principalOf(doc, this.personal);
    if (kind === 'agent') return `agent ${name}`;
    return email ? `${name} <${email}>` : name;
  }
}
