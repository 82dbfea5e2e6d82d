import { Inject, Injectable } from '@nestjs/common';
import type { ProjectGrantDoc } from '../../projections/projects.projection.js';
import type { ProjectStanding } from './authority.js';
import { AppError } from '../common/app-error.js';
import type { RequestContext } from '../kernel/request-context.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';

/** A principal holds few grants: more than this many is a model error, not a page to read. */
const MAX_GRANTS = 1000;

/**
 * A caller's standing across projects: team role, grants (the `project_grants` read model) and
 * what the presented token is limited to, for the project rule in authority.ts.
 */
@Injectable()
export class ProjectStandings {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  /** From a call's context, or an identity being admitted: its principal and token. */
  async of(ctx: Pick<RequestContext, 'principal' | 'token'>): Promise<ProjectStanding> {
    const principal = ctx.principal;
    if (!principal) throw new AppError('AUTH_REQUIRED', 'Sign in or present a bearer token');
    const teamWide = principal.kind === 'user' && ['owner', 'admin'].includes(principal.role);
    const grants: Record<string, ProjectStanding['grants'][string]> = {};
    if (!teamWide) {
      const { items } = await this.reads
        .collection<ProjectGrantDoc>('project_grants')
        .find({ principalId: principal.id }, { limit: MAX_GRANTS });
      for (const g of items) grants[g.projectId] = g.role;
    }
    return {
      kind: principal.kind,
      role: principal.role,
      preset: principal.preset ?? null,
      grants,
      tokenProjects: ctx.token?.projects ?? null,
      tokenScopes: ctx.token ? ctx.token.scopes : null,
    };
  }
}
