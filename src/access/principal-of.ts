import type { PrincipalDoc } from '../../projections/principals.projection.js';
import type { PersonalData } from '../privacy/personal-data.js';
import type { Principal } from '../kernel/request-context.js';
import type { Role } from '../kernel/roles.js';

/** A principal as handlers see it: personal values opened (or `[erased]`). */
export async function principalOf(doc: PrincipalDoc, personal: PersonalData): Promise<Principal> {
  return {
    id: doc.id,
    kind: doc.kind,
    role: doc.role as Role,
    name: (await personal.reveal(doc.name)) ?? '',
    email: await personal.reveal(doc.email),
    preset: doc.preset,
  };
}
