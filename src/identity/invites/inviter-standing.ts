import { assertMayGrantRole, type Caller } from '../../access/authority.js';
import { ROLE_CAPABILITIES } from '../../access/capabilities.js';
import { AppError } from '../../common/app-error.js';
import { ADMINS } from '../../kernel/roles.js';
import type { Scope } from '../../kernel/scopes.js';
import type { HumanRole } from '../team-members.decider.js';
import type { MemberStanding } from '../team-roster.js';

/** Who may send invites: the roles and scope `inviteMember` is declared with. */
export const INVITER_ROLES = ADMINS;
export const INVITE_SCOPE: Scope = 'members:manage';

/** An inviter as the team stream has them at the moment their invite is accepted. */
export type InviterStanding = MemberStanding;

/** An invite whose inviter lost the standing to grant its role: no longer valid. */
export function inviterCannotGrant(role: HumanRole): AppError {
  return new AppError(
    'FORBIDDEN',
    `This invite is no longer valid: the member who sent it can no longer grant ${role}. Ask for a new invite`,
    { requiredScopes: [], grantedScopes: [], rule: 'inviter-standing' },
  );
}

/**
 * An invite carries its inviter's authority only while they still hold it: at acceptance the
 * inviter must be active and could send the same invite now (role and scope of `inviteMember`,
 * then rank and narrowing against the role's own capabilities). Unknown inviters fail closed.
 */
export function inviterMayStillGrant(inviter: InviterStanding | null, role: HumanRole): boolean {
  if (!inviter?.active) return false;
  if (!(INVITER_ROLES as readonly string[]).includes(inviter.role)) return false;
  const scopes = ROLE_CAPABILITIES[inviter.role];
  if (!scopes.includes(INVITE_SCOPE)) return false;
  const caller: Caller = { id: inviter.userId, kind: 'user', role: inviter.role, scopes };
  try {
    assertMayGrantRole(caller, role);
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

export function assertInviterMayStillGrant(inviter: InviterStanding | null, role: HumanRole) {
  if (!inviterMayStillGrant(inviter, role)) throw inviterCannotGrant(role);
}
