import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AccessService } from '../../access/access.service.js';
import { decideAccess } from '../../access/access-decision.js';
import { RefusalRecorder } from '../../audit/refusals/refusal-recorder.js';
import { AppError } from '../../common/app-error.js';
import { toAppError } from '../../kernel/app-error-of.js';
import { auditMarks, markAuditTarget, recordInputFields } from '../../kernel/audit-attribution.js';
import { validateInput } from '../../kernel/input-validation.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { countingAppends } from '../../storage/append-count.js';
import { ProcedureRegistry, type RegisteredProcedure } from '../procedure-registry.js';
import {
  inputPart,
  type CallAccess,
  type CallTarget,
  type InputPart,
  type Validated,
} from './call-target.js';

export interface AdmitOptions {
  /** The names of the fields sent, for a refusal's record (never their values). */
  fields?: () => string[];
  /** A surface's own check once the target is known, before the guard (the HTTP method). */
  before?: () => void;
}

export interface RunOptions<T> {
  /**
   * Whom to record a call that changed nothing for, or null when it changed something. By
   * default: a command that appended no event, as its caller.
   */
  noEffect?: (value: T, appended: number, ctx: RequestContext) => RequestContext | null;
  /** A procedure's REST twin: its route is judged on the procedure's input (dispatch). */
  twin?: boolean;
}

/**
 * The one request pipeline of every surface: `/trpc`, `/api/v1` (with the route guard), MCP
 * tools and inbound hooks. In order:
 * 1. audit attribution: the target and the input's field names are marked on the call;
 * 2. authentication and the guard (role ∩ scopes, MFA policy, session-only): AccessService;
 * 3. validation of every input part against its class;
 * 4. the work, counting the events it appends; a command that appended none is recorded;
 * 5. refusal records: any failure is judged for the audit trail once, then rethrown as the
 *    API error it is answered with (SERVICE_UNAVAILABLE when the record cannot be written);
 * 6. read-your-writes: the write path answers once the read models hold what the call appended
 *    (EventWriter), and the answer is never cached (`Cache-Control: no-store`), so the caller's
 *    next read shows its write on any surface.
 */
@Injectable()
export class CallPipeline {
  private readonly admitted = new WeakMap<Request, RequestContext>();
  /** The admitted calls judged in a project once their input is read (routes that say so). */
  private readonly judgedIn = new WeakMap<Request, CallAccess>();

  constructor(
    private readonly access: AccessService,
    private readonly refusals: RefusalRecorder,
    private readonly registry: ProcedureRegistry,
  ) {}

  /** Steps 1 and 2: the call's context, or a recorded refusal. */
  async admit(req: Request, target: CallTarget, options: AdmitOptions = {}) {
    markAuditTarget(req, target.audit);
    if (options.fields) recordInputFields(req, safely(options.fields));
    try {
      options.before?.();
      const { access } = target;
      const ctx =
        access.auth === 'signed'
          ? this.access.anonymous(req)
          : await this.access.authorize(access, req);
      const admitted = target.audit.channel ? { ...ctx, channel: target.audit.channel } : ctx;
      this.admitted.set(req, admitted);
      if (access.auth !== 'signed' && access.project) this.judgedIn.set(req, access);
      return admitted;
    } catch (thrown) {
      throw await this.refused(req, thrown);
    }
  }

  /** Steps 3 to 6 for a call admitted before (a REST route, by the route guard). */
  async run<T, P extends readonly InputPart[]>(
    req: Request,
    parts: [...P],
    work: (input: Validated<P>, ctx: RequestContext) => Promise<T> | T,
    options: RunOptions<T> = {},
  ): Promise<T> {
    try {
      const ctx = this.admitted.get(req);
      if (!ctx) throw new AppError('INTERNAL_SERVER_ERROR', 'A call ran without its guard');
      const input: unknown[] = [];
      for (const part of parts) input.push(await validateInput(part.type, await part.value()));
      // Only a call on something in a project pays for the judgement (and its await).
      const target = this.judgedIn.get(req);
      const judged = target ? await this.inProject(target, ctx, input, options.twin) : ctx;
      const { value, appended } = await countingAppends(async () =>
        work(input as Validated<P>, judged),
      );
      const byDefault = auditMarks(req).target?.lane === 'command' && appended === 0 ? ctx : null;
      const noEffect = options.noEffect ? options.noEffect(value, appended, ctx) : byDefault;
      if (noEffect) await this.refusals.recordNoEffect(req, noEffect);
      if (req.res && !req.res.headersSent) req.res.setHeader('Cache-Control', 'no-store');
      return value;
    } catch (thrown) {
      throw await this.refused(req, thrown);
    }
  }

  /**
   * A route that acts on something in a project is judged in that project, by its validated
   * input (path, query and body read together). Procedures are judged by their registry entry.
   */
  private async inProject(access: CallAccess, ctx: RequestContext, input: unknown[], twin = false) {
    if (access.auth === 'signed') return ctx;
    const fields = Object.assign(
      {},
      ...input.filter((part): part is object => typeof part === 'object' && part !== null),
    ) as Record<string, unknown>;
    // A twin's input is the procedure's, which always names its target: a field it does not
    // have would judge nothing, a declaration to fix rather than a call to let through.
    const [[, field]] = Object.entries(access.project ?? {}) as [[string, string]];
    if (twin && fields[field] === undefined)
      throw new AppError(
        'INTERNAL_SERVER_ERROR',
        `${access.name} is judged by ${field}, which its procedure's input does not have`,
      );
    return this.access.inProject(access, ctx, fields);
  }

  /** The whole pipeline for one call. */
  async call<T, P extends readonly InputPart[]>(
    req: Request,
    target: CallTarget,
    parts: [...P],
    work: (input: Validated<P>, ctx: RequestContext) => Promise<T> | T,
    options: AdmitOptions & RunOptions<T> = {},
  ): Promise<T> {
    await this.admit(req, target, options);
    return this.run(req, parts, work, options);
  }

  /**
   * A REST route that is a procedure's twin, admitted by its own declaration: the procedure's
   * rule is checked too (a route never admits more than its procedure), its input validated
   * against the procedure's class, and the procedure run as `/trpc` runs it.
   */
  dispatch(req: Request, name: string, value: InputPart['value']): Promise<unknown> {
    const procedure = this.procedure(name);
    return this.run(
      req,
      [inputPart(procedure.input, value)],
      ([input], ctx) => {
        if (procedure.auth === 'authenticated' && ctx.principal) {
          decideAccess(procedure, ctx.principal, ctx.scopes);
        }
        return procedure.invoke(input, ctx);
      },
      { twin: true },
    );
  }

  /** Step 5 on its own, for a surface that answers failures itself (MCP tool results). */
  refused(req: Request, thrown: unknown): Promise<AppError> {
    const requestId = typeof req.requestId === 'string' ? req.requestId : 'unknown';
    return this.refusals.recordFailure(req, toAppError(thrown, requestId), thrown);
  }

  private procedure(name: string): RegisteredProcedure {
    const procedure = this.registry.get(name);
    if (!procedure) throw new AppError('INTERNAL_SERVER_ERROR', `No procedure ${name}`);
    return procedure;
  }
}

/** Field names are read for a record only: a value that cannot be read has none to give. */
function safely(fields: () => string[]): () => string[] {
  return () => {
    try {
      return fields();
    } catch {
      return [];
    }
  };
}
