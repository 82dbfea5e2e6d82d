import type { RequestContext, SessionInfo, TokenInfo } from '../kernel/request-context.js';
import type { PrincipalSummary } from './principals-page.js';

/** Who is calling, and with what. Never a secret. */
export interface CallerDescription {
  principal: PrincipalSummary;
  authMethod: RequestContext['authMethod'];
  scopes: string[];
  token: TokenInfo | null;
  session: SessionInfo | null;
}

/** What `viewer` and `GET /api/v1/me` answer. */
export function describeCaller(ctx: RequestContext): CallerDescription {
  const p = ctx.principal!;
  return {
    principal: {
      id: p.id,
      kind: p.kind,
      name: p.name,
      email: p.email ?? null,
      role: p.role,
      preset: p.preset ?? null,
    },
    authMethod: ctx.authMethod,
    scopes: ctx.scopes,
    token: ctx.token,
    session: ctx.session,
  };
}
