import { AppError } from '../common/app-error.js';
import { capabilitiesOf, type CapabilityHolder } from './capabilities.js';
import { isScope, laneOfScopes } from '../kernel/scopes.js';

export const MAX_TOKEN_DAYS = 365;

export interface TokenGrant {
  scopes: string[];
  lane: string;
  expiresAt: string | null;
}

/**
 * A token can only narrow: every requested scope must be within the principal's capabilities,
 * or the request is refused listing the ones outside (never silently dropped or widened).
 * Agent tokens must expire.
 */
export function grantToken(
  holder: CapabilityHolder,
  requested: string[],
  expiresInDays: number | undefined,
  now: Date,
): TokenGrant {
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length) {
    throw new AppError('BAD_REQUEST', `Unknown scope ${unknown.join(', ')}`, {
      issues: unknown.map((s) => ({ path: 'scopes', message: `${s} is not a scope` })),
    });
  }
  const capabilities = capabilitiesOf(holder) as readonly string[];
  const outside = requested.filter((s) => !capabilities.includes(s));
  if (outside.length) {
    throw new AppError('FORBIDDEN', `The principal cannot hold ${outside.join(', ')}`, {
      requiredScopes: [...new Set(requested)].sort(),
      grantedScopes: [...capabilities].sort(),
      refusedScopes: outside.sort(),
    });
  }
  if (holder.kind === 'agent' && expiresInDays === undefined) {
    throw new AppError('BAD_REQUEST', 'Agent tokens must expire', {
      issues: [
        { path: 'expiresInDays', message: `expiresInDays is required (1-${MAX_TOKEN_DAYS})` },
      ],
    });
  }
  const scopes = [...new Set(requested)].sort();
  return {
    scopes,
    lane: laneOfScopes(scopes),
    expiresAt:
      expiresInDays === undefined
        ? null
        : new Date(now.getTime() + expiresInDays * 86_400_000).toISOString(),
  };
}
