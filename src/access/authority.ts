import { AppError } from '../common/app-error.js';
import { capabilitiesOf, ROLE_CAPABILITIES, ROLE_RANK } from './capabilities.js';
import type { RequestContext } from '../kernel/request-context.js';
import type { Role } from '../kernel/roles.js';
import { DEFAULT_PROJECT, type ProjectRole } from '../events/projects.events.js';

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

/**
 * Projects: what a principal may do to something in project `projectId`. Owners and team admins
 * hold their team role in every project; anyone else holds the role granted in that project,
 * or, in the default project only, their team role (what every member could do before there
 * were projects). A token limited to projects reaches only those. Effective access there is the
 * role's capabilities (an agent's preset) ∩ the token's scopes.
 */
export interface ProjectStanding {
  kind: 'user' | 'agent';
  /** The team role: owner, admin, operator, viewer, or agent. */
  role: Role;
  preset?: string | null;
  /** The role granted in each project that grants one. */
  grants: Readonly<Record<string, ProjectRole>>;
  /** The projects the presented token is limited to; null: not limited (or a session). */
  tokenProjects: readonly string[] | null;
  /** The presented token's scopes; null for a session. */
  tokenScopes: readonly string[] | null;
}

const TEAM_WIDE: readonly Role[] = ['owner', 'admin'];

/** An owner or team admin whose credential is not limited to projects: every project alike. */
export function reachesEveryProject(standing: ProjectStanding): boolean {
  return standing.kind === 'user' && TEAM_WIDE.includes(standing.role) && !standing.tokenProjects;
}

/**
 * A call on the team as a whole (judged in no project, listing nothing by project, not the
 * caller's own): a token limited to projects does not reach it.
 */
export function assertReachesTeam(
  name: string,
  tokenProjects: readonly string[] | null,
  grantedScopes: readonly string[],
): void {
  if (!tokenProjects) return;
  throw new AppError(
    'FORBIDDEN',
    `${name} acts on the whole team; this token is limited to projects ${tokenProjects.join(', ')}`,
    {
      requiredScopes: [],
      grantedScopes: [...grantedScopes].sort(),
      rule: 'token-projects',
      tokenProjects: [...tokenProjects],
    },
  );
}

/** The role held in a project, or null for none. */
export function roleInProject(standing: ProjectStanding, projectId: string): Role | null {
  if (standing.kind === 'user' && TEAM_WIDE.includes(standing.role)) return standing.role;
  const granted = standing.grants[projectId];
  if (granted) return granted;
  return projectId === DEFAULT_PROJECT ? standing.role : null;
}

/** The role and effective scopes in a project, or a refusal that says which rule refused. */
export function projectAccess(
  standing: ProjectStanding,
  projectId: string,
): { role: Role; scopes: string[] } {
  if (standing.tokenProjects && !standing.tokenProjects.includes(projectId)) {
    throw new AppError('FORBIDDEN', `This token is limited to projects other than ${projectId}`, {
      requiredScopes: [],
      grantedScopes: [...(standing.tokenScopes ?? [])].sort(),
      rule: 'token-projects',
      project: projectId,
      tokenProjects: [...standing.tokenProjects],
    });
  }
  const role = roleInProject(standing, projectId);
  if (!role) {
    throw new AppError('FORBIDDEN', `You have no role in project ${projectId}`, {
      requiredScopes: [],
      grantedScopes: [],
      rule: 'project',
      project: projectId,
    });
  }
  return { role, scopes: projectScopes(standing, role) };
}

/** The capabilities of `role` (an agent's preset) ∩ the presented token's scopes. */
export function projectScopes(standing: ProjectStanding, role: Role): string[] {
  const capabilities = capabilitiesOf({ kind: standing.kind, role, preset: standing.preset });
  return standing.tokenScopes
    ? capabilities.filter((s) => standing.tokenScopes!.includes(s))
    : [...capabilities];
}

/**
 * The most a principal could do in any project it reaches: what admits it to a call whose
 * project is known only from the call's input (the call is then judged in that project).
 */
export function highestProjectRole(standing: ProjectStanding): Role {
  if (standing.kind === 'agent') return standing.role;
  const roles = [standing.role, ...Object.values(standing.grants)].filter(isHumanRole);
  return roles.reduce<Role>(
    (best, r) => (ROLE_RANK[r] > ROLE_RANK[best as HumanRole] ? r : best),
    standing.role,
  );
}

/** The projects a principal may read in, or null for every project. */
export function readableProjects(standing: ProjectStanding): string[] | null {
  const teamWide = standing.kind === 'user' && TEAM_WIDE.includes(standing.role);
  const reachable = teamWide
    ? null
    : [...new Set([DEFAULT_PROJECT, ...Object.keys(standing.grants)])];
  if (!standing.tokenProjects) return reachable;
  return (reachable ?? standing.tokenProjects).filter((p) => standing.tokenProjects!.includes(p));
}

/**
 * Narrowing for projects: a token made with a token limited to projects is limited to some of
 * them too. (A session, or a token not limited, may limit the new one as it likes.)
 */
export function assertWithinProjects(
  presented: readonly string[] | null,
  wanted: readonly string[] | null,
): void {
  if (!presented) return;
  const outside = wanted ? wanted.filter((p) => !presented.includes(p)) : null;
  if (outside && outside.length === 0) return;
  throw new AppError(
    'FORBIDDEN',
    outside
      ? `The token would reach projects your credential does not: ${outside.join(', ')}`
      : `Your credential is limited to projects ${presented.join(', ')}: limit the token to them too`,
    {
      requiredScopes: [],
      grantedScopes: [],
      rule: 'narrowing',
      tokenProjects: [...presented],
    },
  );
}
