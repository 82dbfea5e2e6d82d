import type { Request } from 'express';
import type { ProcedureRegistry } from '../rpc/procedure-registry.js';
import { attributeCaller, markAuditTarget } from '../kernel/audit-attribution.js';

const PROCEDURE_PATH = /^\/trpc\/([A-Za-z][A-Za-z0-9]{0,63})$/;
const AUTH_ROUTES = new Set([
  '/api/auth/sign-up',
  '/api/auth/login',
  '/api/auth/login/verify',
  '/api/auth/request-password-reset',
  '/api/auth/reset-password',
  '/api/auth/logout',
]);

/**
 * For requests refused before routing (a body that is not JSON, or too large): names the
 * command procedure or auth route they were sent to, so the refusal is audited like any other.
 * Nobody has been authenticated yet; only whether a credential was presented is known.
 */
export function unroutedTargetMarker(registry: ProcedureRegistry) {
  return (req: Request): void => {
    if (req.method !== 'POST') return;
    const name = PROCEDURE_PATH.exec(req.path)?.[1];
    const procedure = name ? registry.get(name) : undefined;
    if (procedure) {
      markAuditTarget(req, { surface: 'procedure', name: procedure.name, lane: procedure.lane });
    } else if (req.path === '/mcp') {
      // A message too large for the MCP endpoint may have been a tool call: recorded as one.
      markAuditTarget(req, {
        surface: 'route',
        name: 'POST /mcp',
        lane: 'command',
        channel: 'mcp',
      });
    } else if (AUTH_ROUTES.has(req.path)) {
      markAuditTarget(req, { surface: 'route', name: `POST ${req.path}`, lane: 'command' });
    } else {
      return;
    }
    const presented = req.header('authorization') !== undefined ? 'token' : 'none';
    attributeCaller(req, {
      principalId: null,
      kind: 'anonymous',
      role: null,
      authMethod: presented,
      tokenId: null,
    });
  };
}
