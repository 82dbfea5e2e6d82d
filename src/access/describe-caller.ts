import type { RequestContext } from '../kernel/request-context.js';

/** What `viewer` and `GET /api/v1/me` answer: who is calling, and with what. Never a secret. */
export function describeCaller(ctx: RequestContext) {
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
