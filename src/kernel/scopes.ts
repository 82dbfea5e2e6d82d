import type { Lane } from './lanes.js';

/**
 * Every scope, the one lane it belongs to, and what it allows. A token's lane is computed from
 * its scopes; a procedure requires the narrowest scope that fits it.
 */
export const SCOPE_CATALOGUE = {
  'deploy:read': { lane: 'read', description: 'Read deployments, their steps and logs' },
  'server:read': { lane: 'read', description: 'Read servers and the infrastructure inventory' },
  'service:read': {
    lane: 'read',
    description: 'Read services and their configuration (secrets masked)',
  },
  'approval:read': { lane: 'read', description: 'Read the approval queue' },
  'members:read': { lane: 'read', description: 'Read users and agent principals' },
  'tokens:read': { lane: 'read', description: 'Read API token metadata (never values)' },
  'audit:read': { lane: 'read', description: 'Read and export the audit trail' },
  'notifications:read': {
    lane: 'read',
    description: 'Read notification channels (targets masked) and their deliveries',
  },
  'logs:read': {
    lane: 'read',
    description: 'Follow deployment output and service container logs as they are written',
  },
  'diagnostics:read': {
    lane: 'read',
    description: 'Read live service status and resource use, and check server connections',
  },
  'deploy:plan': {
    lane: 'planning',
    description: 'Preview deployments, rollbacks, restores and diffs',
  },
  'deploy:start': { lane: 'command', description: 'Trigger deployments and rollbacks' },
  'deploy:cancel': { lane: 'command', description: 'Cancel queued or running deployments' },
  'server:write': { lane: 'command', description: 'Register servers and approve host keys' },
  'service:write': { lane: 'command', description: 'Register and update services' },
  'backup:write': { lane: 'command', description: 'Trigger and record backups' },
  'approvals:request': { lane: 'command', description: 'Request approvals' },
  'approvals:decide': { lane: 'command', description: 'Approve or reject requests of others' },
  'tokens:manage': {
    lane: 'command',
    description: 'Create, rotate and revoke API tokens; create agents',
  },
  'members:manage': {
    lane: 'command',
    description: 'Change roles, deactivate users, invalidate principals',
  },
  'security:manage': { lane: 'command', description: 'Change the team security (MFA) policy' },
  'notifications:manage': {
    lane: 'command',
    description: 'Create, change and test notification channels',
  },
  'audit:seal': { lane: 'command', description: 'Seal a signed checkpoint of the audit chain' },
  'privacy:erase': {
    lane: 'command',
    description: "Erase a person's personal data from every event (crypto-shredding)",
  },
} as const satisfies Record<string, { lane: Lane; description: string }>;

export type Scope = keyof typeof SCOPE_CATALOGUE;

export const ALL_SCOPES = Object.keys(SCOPE_CATALOGUE) as Scope[];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(SCOPE_CATALOGUE, value);
}

export function scopesOfLane(lane: Lane): Scope[] {
  return ALL_SCOPES.filter((s) => SCOPE_CATALOGUE[s].lane === lane);
}

/** `command` if any command scope, else `planning` if any planning scope, else `read`. */
export function laneOfScopes(scopes: readonly string[]): Lane {
  const lanes = scopes.filter(isScope).map((s) => SCOPE_CATALOGUE[s].lane);
  if (lanes.includes('command')) return 'command';
  if (lanes.includes('planning')) return 'planning';
  return 'read';
}
