import { applyDecorators, type Type } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { CommandHandler, QueryHandler } from '@nestjs/cqrs';
import type {
  ProcedureCommand,
  ProcedureMessageClass,
  ProcedureQuery,
} from './procedure-message.js';
import type { RequestContext } from './request-context.js';
import type { Lane } from './lanes.js';
import type { Role } from './roles.js';
import type { Scope } from './scopes.js';

export type ProcedureAuth = 'public' | 'authenticated';

/**
 * Where the thing a call acts on lives, for access per project: the input field that holds the
 * id of a service, server, deployment, backup, approval, scheduled job or deploy hook, or names a project
 * (absent there: the default project). `alert` names the field of an alert rule's id, for calls
 * that name the server or service they watch (`serverId`, `serviceId`) or the rule alone.
 */
export type ProjectTarget =
  | { service: string }
  | { job: string }
  | { hook: string }
  | { alert: string }
  | { server: string }
  | { deployment: string }
  | { backup: string }
  | { approval: string }
  | { project: string };

/**
 * The single declaration of a procedure. It drives routing (name, method from lane), the
 * guard (auth, roles, scopes), input validation (input class) and the published contract.
 */
export interface ProcedureOptions {
  name: string;
  lane: Lane;
  /**
   * `public` needs no credentials (only `health` is public); a valid credential presented to it
   * still identifies the caller, so it may show them more.
   */
  auth: ProcedureAuth;
  /** Roles allowed to call; empty only for public procedures. */
  roles: readonly Role[];
  /** Scopes a caller's effective access must include (all of them). */
  scopes: readonly Scope[];
  /** class-validator class for the input; absent when the procedure takes none. */
  input?: Type<object>;
  description: string;
  /**
   * Reachable by a session that the team MFA policy blocks, so that its user can comply
   * (enrol, read the policy, see who they are).
   */
  mfaExempt?: boolean;
  /**
   * Only a signed-in session (browser or CLI) may call it, never an API token: what manages a
   * person's own second factor needs that person, not a credential they handed out.
   */
  sessionOnly?: boolean;
  /**
   * The answer is a function of the input and the read models alone: not of the caller, the
   * clock or any other store. It is then kept, and shared by every caller the guard admits,
   * until anything commits to the read models.
   */
  readModelsOnly?: boolean;
  /**
   * The call acts on something in a project: it is judged by the caller's role in that project
   * (owners and admins: their team role), and a token limited to projects reaches only those.
   */
  project?: ProjectTarget;
  /**
   * The answer lists things that live in projects: a caller who does not reach every project
   * gets only those in the projects it reads (`RequestContext.readableProjects`), never a kept
   * answer shared with others.
   */
  projectList?: true;
  /**
   * The call concerns the caller alone (its own account or credentials; a token it mints is
   * narrowed to the presenting token's projects) or nothing of the team's (a probe of an
   * address). A token limited to projects may call it, as it may call those judged in a project
   * and project lists; any other call acts on the team as a whole, which such a token does not
   * reach.
   */
  ownOnly?: true;
}

/** What a procedure that needs credentials declares; its lane is named by the decorator. */
export type AuthenticatedProcedureOptions = Omit<ProcedureOptions, 'lane' | 'auth'>;

/** A declaration as the registry finds it: the options and the message its handler takes. */
export interface ProcedureDeclaration extends ProcedureOptions {
  message: ProcedureMessageClass;
}

type MessageOf<TInput> = new (input: TInput, ctx: RequestContext) => object;

const declareProcedure = DiscoveryService.createDecorator<ProcedureDeclaration>();

function onBus(lane: Lane, message: ProcedureMessageClass): ClassDecorator {
  return lane === 'command' ? CommandHandler(message) : QueryHandler(message);
}

function declare(
  message: ProcedureMessageClass,
  options: Omit<ProcedureOptions, 'lane'>,
  lane: Lane,
): ClassDecorator {
  return applyDecorators(onBus(lane, message), declareProcedure({ ...options, lane, message }));
}

const inLane =
  (lane: Lane) =>
  <TInput>(
    message: MessageOf<TInput> &
      (new (
        input: TInput,
        ctx: RequestContext,
      ) => ProcedureCommand<TInput, unknown> | ProcedureQuery<TInput, unknown>),
    options: AuthenticatedProcedureOptions & { input?: Type<TInput & object> },
  ) =>
    declare(message as ProcedureMessageClass, { ...options, auth: 'authenticated' }, lane);

/**
 * Declares a procedure on its handler class, and makes that class the handler of the
 * procedure's message: `@Procedure.command(TriggerDeploy, {...})` is also
 * `@CommandHandler(TriggerDeploy)`; reads and plans are `@QueryHandler`s of theirs. A call
 * builds the message from the validated input and the caller's context and sends it on the
 * CommandBus or QueryBus. Every procedure but `health` needs credentials.
 */
export const Procedure = {
  read: inLane('read'),
  planning: inLane('planning'),
  command: inLane('command'),
  /** Needs no credentials: read-lane, no roles, no scopes (only `health`). */
  public: <TInput>(
    message: new (input: TInput, ctx: RequestContext) => ProcedureQuery<TInput, unknown>,
    options: Omit<ProcedureOptions, 'lane' | 'auth' | 'roles' | 'scopes'>,
  ) =>
    declare(
      message as ProcedureMessageClass,
      { ...options, auth: 'public', roles: [], scopes: [] },
      'read',
    ),
  /** The metadata key the registry reads; not a decorator to apply by hand. */
  declaration: declareProcedure,
};

export type HttpMethod = 'GET' | 'POST';

/** Queries (read, planning) are GET; mutations (command) are POST. */
export function methodForLane(lane: Lane): HttpMethod {
  return lane === 'command' ? 'POST' : 'GET';
}
