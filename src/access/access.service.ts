import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../common/app-error.js';
import type { ProcedureOptions, ProjectTarget } from '../kernel/procedure.js';
import { SecurityPolicyReader } from '../security/security-policy.reader.js';
import { mfaRequired } from '../security/mfa-requirement.js';
import { decideAccess } from './access-decision.js';
import {
  assertReachesTeam,
  highestProjectRole,
  projectAccess,
  projectScopes,
  reachesEveryProject,
  readableProjects,
} from './authority.js';
import { ProjectOfTarget } from './project-of-target.js';
import { ProjectStandings } from './project-standings.js';
import { capabilitiesOf } from './capabilities.js';
import {
  CREDENTIAL_VERIFIER,
  type AuthenticatedIdentity,
  type CredentialVerifier,
  type HeldCredential,
} from './authenticated-identity.js';
import { attributeCaller } from '../kernel/audit-attribution.js';
import { BearerCredentials } from './bearer-credentials.js';
import { presentedCredential } from './credentials.js';
import { anonymousContext, type RequestContext } from '../kernel/request-context.js';

/** What a caller is admitted to: a procedure's or a route's declared access. */
export type AccessTarget = Pick<
  ProcedureOptions,
  'name' | 'roles' | 'scopes' | 'mfaExempt' | 'sessionOnly' | 'project' | 'projectList' | 'ownOnly'
>;

/** The guard every surface calls: who is calling, and may they call this. Fail-closed. */
@Injectable()
export class AccessService {
  private readonly bearer: BearerCredentials;

  constructor(
    @Inject(CREDENTIAL_VERIFIER) private readonly verifier: CredentialVerifier,
    private readonly policies: SecurityPolicyReader,
    private readonly standings: ProjectStandings,
    private readonly projects: ProjectOfTarget,
  ) {
    this.bearer = new BearerCredentials((token) => this.verifier.verifyToken(token));
  }

  async authorize(
    target: AccessTarget & Pick<ProcedureOptions, 'auth'>,
    req: Request,
  ): Promise<RequestContext> {
    const anonymous = this.anonymous(req);
    if (target.auth === 'public') return this.publicContext(req, anonymous);
    const identity = await this.authenticate(req);
    attributeCaller(req, {
      principalId: identity.principal.id,
      kind: identity.principal.kind,
      role: identity.principal.role,
      authMethod: identity.method,
      tokenId: identity.token?.id ?? null,
    });
    const scopes = await this.admit(target, identity);
    return authenticatedContext(anonymous, identity, scopes);
  }

  /**
   * A credential verified before, verified again for a response that outlives its request (a
   * stream, a wait): revoked, expired, invalidated, deactivated and ended all refuse it now.
   */
  reverify(held: HeldCredential): Promise<AuthenticatedIdentity> {
    return this.verifier.recheck(held);
  }

  /** The guard's rules past the credential: MFA policy, session-only, role ∩ scopes. */
  async admit(target: AccessTarget, identity: AuthenticatedIdentity): Promise<string[]> {
    if (!target.mfaExempt) await this.enforceMfaPolicy(identity);
    const scopes = effectiveScopes(identity);
    if (target.sessionOnly && identity.method !== 'session') {
      throw new AppError('FORBIDDEN', `${target.name} is called from a signed-in session only`, {
        requiredScopes: [],
        grantedScopes: scopes,
        rule: 'session-only',
      });
    }
    if (!target.project && !target.projectList && !target.ownOnly) {
      assertReachesTeam(target.name, identity.token?.projects ?? null, scopes);
    }
    if (target.project) {
      // Judged again in the target's project once the input says which; here, by the most the
      // caller holds in any project it reaches.
      const standing = await this.standings.of(identity);
      const role = highestProjectRole(standing);
      const ceiling = projectScopes(standing, role);
      decideAccess(target, { ...identity.principal, role }, ceiling);
      return ceiling;
    }
    decideAccess(target, identity.principal, scopes);
    return scopes;
  }

  /**
   * Something else a call touches besides its target (the server a service is placed on, a
   * build server), judged in that thing's project by the same procedure's rule.
   */
  async alsoIn(
    target: Omit<AccessTarget, 'project'>,
    ctx: RequestContext,
    what: { server: string } | { service: string } | { deployment: string },
  ): Promise<void> {
    const [[kind, id]] = Object.entries(what) as [['server' | 'service' | 'deployment', string]];
    const project = { [kind]: 'id' } as ProjectTarget;
    await this.inProject({ ...target, project }, ctx, { id });
  }

  /** The projects a caller reads in (null: every project), for lists of things in projects. */
  async readableProjects(ctx: RequestContext): Promise<string[] | null> {
    if (!ctx.principal) return null;
    return readableProjects(await this.standings.of(ctx));
  }

  /**
   * A call whose target lives in a project, judged there: the caller's role in that project
   * (authority.ts) must be allowed and its scopes there must cover the procedure's. The call
   * then runs with those scopes. An unknown target is left to the call (NOT_FOUND).
   */
  async inProject(
    target: AccessTarget,
    ctx: RequestContext,
    input: unknown,
  ): Promise<RequestContext> {
    if (!target.project || !ctx.principal) return ctx;
    const standing = await this.standings.of(ctx);
    // Owners and admins hold their team role everywhere: unless their token is limited to
    // projects, the target's project changes nothing (and is not looked up).
    if (reachesEveryProject(standing)) return ctx;
    const projectId = await this.projects.of(
      target.project,
      input as Record<string, unknown> | undefined,
    );
    if (projectId === null) return ctx;
    const { role, scopes } = projectAccess(standing, projectId);
    decideAccess(target, { ...ctx.principal, role }, scopes);
    return { ...ctx, scopes };
  }

  /**
   * Human sessions are held to the team MFA policy on every surface. A session counts only if
   * the login that started it passed the second factor; tokens and agents are not affected.
   */
  private async enforceMfaPolicy(identity: AuthenticatedIdentity): Promise<void> {
    if (identity.method !== 'session' || !identity.session) return;
    const { policy } = await this.policies.current();
    if (!mfaRequired(policy, identity.principal) || identity.session.mfaVerified) return;
    throw new AppError(
      'MFA_REQUIRED',
      'The team security policy requires two-factor authentication',
      {
        policy,
        requirement: 'Enrol in two-factor authentication, then sign in again with a code',
        role: identity.principal.role,
        sessionMfaVerified: false,
      },
    );
  }

  /** The context of a request that needs no credentials (sign-up, login). */
  anonymous(req: Request): RequestContext {
    const key = req.header('idempotency-key');
    if (key !== undefined && !/^[A-Za-z0-9._:-]{1,255}$/.test(key)) {
      throw new AppError(
        'BAD_REQUEST',
        'Idempotency-Key must be 1-255 characters: letters, digits, . _ : -',
        {
          issues: [{ path: 'Idempotency-Key', message: 'malformed' }],
        },
      );
    }
    return {
      ...anonymousContext(req.requestId, req.correlationId, req.ip ?? null),
      idempotencyKey: key ?? null,
    };
  }

  /** The session-backed context when a live session cookie is presented, else null. */
  async sessionIfAny(req: Request): Promise<RequestContext | null> {
    const credential = presentedCredential(req);
    if (credential.kind !== 'session') return null;
    try {
      const identity = await this.verifier.verifySession(credential.value);
      return {
        ...this.anonymous(req),
        principal: identity.principal,
        authMethod: 'session',
        session: identity.session,
        sessionDigest: identity.sessionDigest,
        scopes: effectiveScopes(identity),
      };
    } catch {
      return null;
    }
  }

  /**
   * A public procedure answers anyone. A caller whose credential holds (and who passes the MFA
   * policy) is still known to it, so it may show them more (health's details); an absent or
   * refused credential leaves the caller anonymous there, never an error.
   */
  private async publicContext(req: Request, anonymous: RequestContext): Promise<RequestContext> {
    if (presentedCredential(req).kind === 'none') return anonymous;
    try {
      const identity = await this.authenticate(req);
      await this.enforceMfaPolicy(identity);
      return authenticatedContext(anonymous, identity, effectiveScopes(identity));
    } catch (error) {
      if (error instanceof AppError) return anonymous;
      throw error;
    }
  }

  private async authenticate(req: Request): Promise<AuthenticatedIdentity> {
    const unknown = { kind: 'anonymous', role: null } as const;
    attributeCaller(req, {
      ...unknown,
      principalId: null,
      authMethod: req.header('authorization') !== undefined ? 'token' : 'none',
      tokenId: null,
    });
    const credential = presentedCredential(req);
    try {
      switch (credential.kind) {
        case 'token':
          return await this.bearer.authenticate(credential.authorization);
        case 'session':
          return await this.verifier.verifySession(credential.value);
        case 'none':
          throw new AppError('AUTH_REQUIRED', 'Sign in or present a bearer token');
      }
    } catch (error) {
      // A refused credential still says whose it was (a revoked token's principal, say).
      const method = credential.kind === 'none' ? 'none' : credential.kind;
      const who = error instanceof AppError ? error.attribution : undefined;
      attributeCaller(req, {
        ...unknown,
        principalId: who?.principalId ?? null,
        authMethod: method,
        tokenId: who?.tokenId ?? null,
      });
      throw error;
    }
  }
}

/** The request's context once its credential is known to be the identity's (again). */
export function authenticatedContext(
  anonymous: RequestContext,
  identity: AuthenticatedIdentity,
  scopes: string[],
): RequestContext {
  return {
    ...anonymous,
    principal: identity.principal,
    authMethod: identity.method,
    tokenId: identity.token?.id ?? null,
    token: identity.token,
    session: identity.session,
    sessionDigest: identity.sessionDigest,
    scopes,
  };
}

/** Role (or preset) capabilities, narrowed by the token's scopes when token-backed. */
export function effectiveScopes(identity: AuthenticatedIdentity): string[] {
  const capabilities = capabilitiesOf(identity.principal);
  const scopes = identity.token
    ? capabilities.filter((s) => identity.token?.scopes.includes(s))
    : [...capabilities];
  return scopes.sort();
}
