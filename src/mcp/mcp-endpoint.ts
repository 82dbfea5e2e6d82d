import type { Request } from 'express';
import { AppError } from '../common/app-error.js';
import type { AuditTarget } from '../kernel/audit-attribution.js';
import type { ProcedureOptions } from '../kernel/procedure.js';
import { EVERYONE } from '../kernel/roles.js';

export const MCP_PATH = '/mcp';

/** Refusals at the endpoint (credentials, an oversized message) are audited under this name. */
export const MCP_ROUTE: AuditTarget = {
  surface: 'route',
  name: `POST ${MCP_PATH}`,
  lane: 'command',
  channel: 'mcp',
};

/**
 * What it takes to open the endpoint: any valid token of any principal. What the caller may do
 * there is decided per tool, by each procedure's own declaration.
 */
export const MCP_ENDPOINT: Pick<
  ProcedureOptions,
  'name' | 'auth' | 'roles' | 'scopes' | 'mfaExempt' | 'ownOnly'
> = {
  name: 'mcp',
  auth: 'authenticated',
  roles: EVERYONE,
  scopes: [],
  mfaExempt: true,
  ownOnly: true,
};

/**
 * MCP takes bearer tokens only. A browser session cookie is refused even when valid: an agent
 * acts with a token of its own, whose scopes and audit trail are its own, and a page that could
 * make the browser send the cookie here must not reach the tools.
 */
export function requireBearer(req: Request): void {
  if (req.header('authorization') !== undefined) return;
  const cookie = req.header('cookie') !== undefined;
  throw new AppError(
    'AUTH_REQUIRED',
    cookie
      ? 'MCP accepts bearer tokens only (Authorization: Bearer slw_...); sessions and cookies are refused'
      : 'Present a bearer token: Authorization: Bearer slw_...',
    { accepted: 'bearer' },
  );
}
