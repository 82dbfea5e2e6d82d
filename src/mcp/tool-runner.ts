import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Request } from 'express';
import { AccessService } from '../access/access.service.js';
import { CredentialWatch } from '../access/credential-watch.js';
import { AppError } from '../common/app-error.js';
import { inputFieldNames } from '../kernel/audit-attribution.js';
import type { RequestContext } from '../kernel/request-context.js';
import { ProcedureRegistry, type RegisteredProcedure } from '../rpc/procedure-registry.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';
import { inputPart } from '../rpc/pipeline/call-target.js';
import { callRequest } from './call-request.js';
import {
  DeploymentWaiter,
  type ProgressSink,
  type WaitOutcome,
  type WaitReads,
} from './deployment-waiter.js';
import { PlanClaims } from './plan-claims.js';
import { gateOfCommand, gateOfPlan, type PlanGate } from './plan-gates.js';
import { splitArguments, startsDeployment } from './tool-arguments.js';
import { toolError, toolResult } from './tool-results.js';

/** How the client asked to be kept informed of one call. */
export interface CallOptions {
  progress: ProgressSink | null;
  signal: AbortSignal;
}

/**
 * Runs one tool call through the call pipeline, as `/trpc` runs a procedure: the guard (role ∩
 * scopes, on every call, so a token revoked mid-session is refused), input validation, the
 * procedure, the audit trail (the channel is `mcp`). On top: plan before command, plan ids on
 * plans, and waiting.
 */
@Injectable()
export class ToolRunner {
  constructor(
    private readonly access: AccessService,
    private readonly registry: ProcedureRegistry,
    private readonly pipeline: CallPipeline,
    private readonly claims: PlanClaims,
    private readonly waiter: DeploymentWaiter,
    private readonly watch: CredentialWatch,
  ) {}

  async call(
    procedure: RegisteredProcedure,
    args: Record<string, unknown> | undefined,
    req: Request,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const call = callRequest(req);
    const gate = gateOfCommand(procedure.name);
    const waitable = startsDeployment(procedure.name);
    try {
      const split = () => splitArguments(args, { planGated: !!gate, waitable });
      let reads: WaitReads | null = null;
      let waitSeconds = 0;
      const run = await this.pipeline.call(
        call,
        {
          access: procedure,
          audit: {
            surface: 'procedure',
            name: procedure.name,
            lane: procedure.lane,
            channel: 'mcp',
          },
        },
        [inputPart(procedure.input, () => split().input)],
        async ([valid], ctx) => {
          const args = split();
          if (gate) this.checkPlan(gate, args.planId, subjectOf(valid), ctx);
          reads = args.wait ? await this.waitReads(call) : null;
          waitSeconds = args.waitSeconds;
          return { valid, ctx, value: await procedure.invoke(valid, planned(ctx, args.planId)) };
        },
        {
          fields: () => inputFieldNames(args ?? {}),
          noEffect: ({ ctx }, appended) =>
            procedure.lane === 'command' && appended === 0 ? ctx : null,
        },
      );
      const { valid, ctx, value } = run;
      const answer = this.withPlanId(procedure, subjectOf(valid), value, ctx);
      const deploymentId = reads ? deploymentOf(value) : null;
      if (reads && deploymentId) {
        const wait = await this.wait(deploymentId, reads, ctx, options, waitSeconds);
        return toolResult({ ...(answer as object), wait });
      }
      return toolResult(answer);
    } catch (thrown) {
      const error = await this.pipeline.refused(call, thrown);
      return toolError(error, typeof call.requestId === 'string' ? call.requestId : 'unknown');
    }
  }

  /**
   * Follows the deployment for as long as the caller's credential still admits its reads: the
   * guard runs again while it waits (see CredentialWatch), and a refusal ends the wait with
   * `ended: {reason, code}`.
   */
  private async wait(
    deploymentId: string,
    reads: WaitReads,
    ctx: RequestContext,
    options: CallOptions,
    seconds: number,
  ): Promise<WaitOutcome> {
    // Both reads are judged again in the deployment's project, by the input they are invoked with.
    const lease = this.watch.watch(ctx, [reads.details, reads.logs], options.signal, {
      deploymentId,
    });
    try {
      const signal = AbortSignal.any([options.signal, lease.signal]);
      const followed = await this.waiter.follow(
        deploymentId,
        reads,
        ctx,
        options.progress,
        signal,
        seconds * 1000,
      );
      return lease.ended ? { ...followed, ended: lease.ended } : followed;
    } finally {
      lease.stop();
    }
  }

  /** A gated command needs a fresh plan id of the caller's, for this subject. */
  private checkPlan(
    gate: PlanGate,
    planId: string | null,
    input: Record<string, unknown>,
    ctx: RequestContext,
  ): void {
    if (planId === null) {
      throw new AppError(
        'FORBIDDEN',
        `Plan first: call ${gate.plan} with this input, then pass its planId to ${gate.command}`,
        { rule: 'plan-first', reason: 'missing', requiredScopes: [], grantedScopes: ctx.scopes },
      );
    }
    this.claims.verify(planId, {
      principalId: ctx.principal!.id,
      command: gate.command,
      subject: gate.commandSubject(input),
    });
  }

  /** A ready plan of a gated command answers, besides the plan, the id the command needs. */
  private withPlanId(
    procedure: RegisteredProcedure,
    input: Record<string, unknown>,
    value: unknown,
    ctx: RequestContext,
  ): unknown {
    const gate = gateOfPlan(procedure.name);
    if (!gate || value === null || typeof value !== 'object') return value;
    const subject = gate.planSubject(input);
    const ready = (value as { isReady?: unknown }).isReady === true;
    const planId =
      ready && subject && ctx.principal
        ? this.claims.issue({ principalId: ctx.principal.id, command: gate.command, subject })
        : null;
    return { ...value, planId };
  }

  /** Waiting reads the deployment: the caller must be allowed to, before the command runs. */
  private async waitReads(call: Request): Promise<WaitReads> {
    const details = this.registry.get('deploymentDetails');
    const logs = this.registry.get('deploymentLogs');
    if (!details || !logs) throw new AppError('NOT_FOUND', 'Deployment reads are not available');
    await this.access.authorize(details, call);
    await this.access.authorize(logs, call);
    return { details, logs };
  }
}

/**
 * A command run on a plan is keyed by that plan (unless the caller gave an Idempotency-Key): a
 * retry with the same planId, after a timeout or a dropped connection, answers the deployment
 * the first call queued instead of queuing another.
 */
function planned(ctx: RequestContext, planId: string | null): RequestContext {
  if (!planId || ctx.idempotencyKey) return ctx;
  return {
    ...ctx,
    idempotencyKey: `mcp-plan:${createHash('sha256').update(planId).digest('hex')}`,
  };
}

function subjectOf(valid: object | undefined): Record<string, unknown> {
  return valid ? { ...(valid as Record<string, unknown>) } : {};
}

function deploymentOf(value: unknown): string | null {
  const id = (value as { deploymentId?: unknown } | null)?.deploymentId;
  return typeof id === 'string' ? id : null;
}
