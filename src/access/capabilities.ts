import type { Role } from '../kernel/roles.js';
import { ALL_SCOPES, scopesOfLane, type Scope } from '../kernel/scopes.js';

const READ_WITHOUT_AUDIT = scopesOfLane('read').filter((s) => s !== 'audit:read');

/** The commands of deployment work, granted to operators and full agents alike. */
const DEPLOYMENT_WORK: readonly Scope[] = [
  'deploy:start',
  'deploy:cancel',
  'server:write',
  'service:write',
  'backup:write',
  'approvals:request',
];

/**
 * What each human role may do, written once. Owner: everything. Admin: everything too; the
 * one thing it lacks, changing ownership, is a rule of `changeUserRole`. Operator: read,
 * planning, and the deploy, server, backup and approval commands. Viewer: the read lane
 * without the audit trail.
 */
export const ROLE_CAPABILITIES: Record<Exclude<Role, 'agent'>, readonly Scope[]> = {
  owner: ALL_SCOPES,
  admin: ALL_SCOPES,
  operator: [
    ...scopesOfLane('read').filter((s) => s !== 'audit:read' && s !== 'tokens:read'),
    ...scopesOfLane('planning'),
    ...DEPLOYMENT_WORK,
    'approvals:decide',
  ],
  viewer: READ_WITHOUT_AUDIT.filter((s) => s !== 'tokens:read'),
};

/** Scopes no agent can ever hold, whatever its preset. */
export const NEVER_FOR_AGENTS: readonly Scope[] = [
  'tokens:manage',
  'tokens:read',
  'members:manage',
  'security:manage',
  'notifications:manage',
  'approvals:decide',
  'audit:read',
  'audit:seal',
  'privacy:erase',
];

const AGENT_READ: Scope[] = [
  'deploy:read',
  'server:read',
  'service:read',
  'approval:read',
  'logs:read',
  'diagnostics:read',
];

/** Agent presets: an agent's capability ceiling. `agent:read-only` is the default. */
export const AGENT_PRESETS = {
  'agent:read-only': AGENT_READ,
  'agent:minimal-write': [...AGENT_READ, 'deploy:plan', 'deploy:start', 'approvals:request'],
  'agent:full': [...AGENT_READ, 'members:read', 'deploy:plan', ...DEPLOYMENT_WORK],
} as const satisfies Record<string, readonly Scope[]>;

export type AgentPreset = keyof typeof AGENT_PRESETS;
export const AGENT_PRESET_NAMES = Object.keys(AGENT_PRESETS) as AgentPreset[];
export const DEFAULT_AGENT_PRESET: AgentPreset = 'agent:read-only';

export interface CapabilityHolder {
  kind: 'user' | 'agent';
  role: Role;
  preset?: string | null;
}

/** The most a principal may do; a token can only narrow this. */
export function capabilitiesOf(holder: CapabilityHolder): readonly Scope[] {
  if (holder.kind === 'agent' || holder.role === 'agent') {
    const preset = AGENT_PRESETS[holder.preset as AgentPreset];
    return preset ? preset.filter((s) => !NEVER_FOR_AGENTS.includes(s)) : [];
  }
  return ROLE_CAPABILITIES[holder.role];
}

/** Role order for "nobody can grant a role above their own". */
export const ROLE_RANK: Record<Exclude<Role, 'agent'>, number> = {
  viewer: 0,
  operator: 1,
  admin: 2,
  owner: 3,
};
