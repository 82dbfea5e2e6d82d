import { AppError } from '../common/app-error.js';
import { capabilitiesOf, ROLE_CAPABILITIES, ROLE_RANK } from './capabilities.js';
import type { RequestContext } from '../kernel/request-context.js';

/**
 * The two rules that keep a caller from reaching above itself, as pure functions every handler
 * that targets a principal, or creates anything that carries access, calls:
 *
 * - Rank: nobody acts on a principal ranked above them (owner > admin > operator > viewer; an
 *   agent ranks as the human who created it), and a new token value goes only to its own user or,
 *   for an agent, to an owner or admin ranked at least as high as the agent.
 * - Narrowing: whatever a call creates or obtains lies within the caller's effective scopes (role
 *   capabilities ∩ the presented credential's scopes).
 */

export type HumanRole = keyof typeof ROLE_RANK;

/** A principal as the rank rule sees it. */
export interface Ranked {
  id: string;
  kind: 'user' | 'agent';
  role: string;
  /** Agents: the current role of the human who created it (null when it cannot be found). */
  creatorRole?: string | null;
}

/** The caller: who it is, and its effective scopes (role ∩ the credential presented). */
export interface Caller extends Ranked {
  scopes: readonly string[];
}

/**
 * The caller of an authenticated request. An agent caller ranks lowest here (its creator is not
 * looked up): no agent can hold a scope that manages principals anyway.
 */
export function callerOf(ctx: RequestContext): Caller {
  const p = ctx.principal;
  if (!p) throw new AppError('AUTH_REQUIRED', 'Sign in or present a bearer token');
  return { id: p.id, kind: p.kind, role: p.role, creatorRole: null, scopes: ctx.scopes };
}

const RANK_NAMES = Object.keys(ROLE_RANK) as HumanRole[];
const isHumanRole = (role: unknown): role is HumanRole =>
  typeof role === 'string' && (RANK_NAMES as string[]).includes(role);

/** The human role a principal ranks as: its own, or for an agent its creator's; null if none. */
export function rankRole(p: Ranked): HumanRole | null {
  const role = p.kind === 'agent' ? p.creatorRole : p.role;
  return isHumanRole(role) ? role : null;
}

/**
 * Fails closed both ways: a caller of unknown rank ranks below everyone, a target of unknown
 * rank (an agent whose creator is gone) above everyone but an owner.
 */
const callerRank = (p: Ranked) => {
  const role = rankRole(p);
  return role ? ROLE_RANK[role] : -1;
};
const targetRank = (p: Ranked) => {
  const role = rankRole(p);
  return role ? ROLE_RANK[role] : ROLE_RANK.owner;
};

const withArticle = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

function describe(p: Ranked): string {
  if (p.kind === 'user') return withArticle(p.role);
  const role = rankRole(p);
  return role ? `an agent created by ${withArticle(role)}` : 'an agent whose creator is unknown';
}

/** A rank refusal: no scope would help, so `requiredScopes` is empty; `rank` says why. */
function rankRefusal(caller: Caller, message: string, above: string): AppError {
  return new AppError('FORBIDDEN', message, {
    requiredScopes: [],
    grantedScopes: [...caller.scopes].sort(),
    rule: 'rank',
    rank: rankRole(caller),
    targetRank: above,
  });
}

/** Rank: nobody acts (`action`, e.g. "revoke a token of") on a principal ranked above them. */
export function assertMayActOn(caller: Caller, target: Ranked, action: string): void {
  if (caller.id === target.id || callerRank(caller) >= targetRank(target)) return;
  const above = rankRole(target) ?? 'owner';
  const own = rankRole(caller) ?? caller.role;
  throw rankRefusal(
    caller,
    `You cannot ${action} ${describe(target)}: ${above} ranks above ${own}`,
    above,
  );
}

/** A role granted is neither above the granter's own nor wider than its effective scopes. */
export function assertMayGrantRole(caller: Caller, role: HumanRole): void {
  assertWithinEffective(caller, ROLE_CAPABILITIES[role], `Granting ${role}`);
  if (callerRank(caller) >= ROLE_RANK[role]) return;
  throw rankRefusal(caller, `You cannot grant ${role}, a role above your own`, role);
}

/**
 * A token's value goes only to the principal it belongs to or, for an agent, to an owner or
 * admin who ranks at least as high as the agent. Never to another human.
 */
export function assertMayReceiveTokenOf(caller: Caller, target: Ranked): void {
  if (caller.id === target.id) return;
  const refuse = (message: string) =>
    new AppError('FORBIDDEN', message, {
      requiredScopes: [],
      grantedScopes: [...caller.scopes].sort(),
      rule: 'token-owner',
    });
  if (target.kind === 'user') {
    throw refuse(
      "A user's token value is given only to that user: ask them to rotate it, or revoke it",
    );
  }
  if (caller.kind !== 'user' || (caller.role !== 'owner' && caller.role !== 'admin')) {
    throw refuse("Only an owner or admin receives an agent's token value");
  }
  assertMayActOn(caller, target, 'get a token value of');
}

/**
 * Narrowing: refuses (never trims) anything wider than the caller's effective scopes, listing
 * what was wanted, what the caller holds and what lies outside.
 */
export function assertWithinEffective(
  caller: Pick<Caller, 'scopes'>,
  wanted: readonly string[],
  what: string,
): void {
  const granted = [...caller.scopes].sort();
  const outside = [...new Set(wanted)].filter((s) => !granted.includes(s)).sort();
  if (outside.length === 0) return;
  throw new AppError(
    'FORBIDDEN',
    `${what} would exceed your access: your credential lacks ${outside.join(', ')}`,
    {
      requiredScopes: [...new Set(wanted)].sort(),
      grantedScopes: granted,
      refusedScopes: outside,
      rule: 'narrowing',
    },
  );
}

/** The scopes an agent with this preset may hold. */
export function scopesOfPreset(preset: string): readonly string[] {
  return capabilitiesOf({ kind: 'agent', role: 'agent', preset });
}
