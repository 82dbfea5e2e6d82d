import { Command, Query } from '@nestjs/cqrs';
import type { RequestContext } from './request-context.js';

/**
 * What a procedure of the command lane dispatches on the CommandBus: its validated input and the
 * caller's context. A use case declares `class X extends ProcedureCommand<XInput, Result> {}`
 * beside its input, its declaration and its handler.
 */
export abstract class ProcedureCommand<TInput, TResult> extends Command<TResult> {
  constructor(
    readonly input: TInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

/** What a procedure of the read or planning lane dispatches on the QueryBus. */
export abstract class ProcedureQuery<TInput, TResult> extends Query<TResult> {
  constructor(
    readonly input: TInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}

/** The class of a procedure's message, as the registry builds one per call. */
export type ProcedureMessageClass = new (
  input: never,
  ctx: RequestContext,
) => ProcedureCommand<unknown, unknown> | ProcedureQuery<unknown, unknown>;

/** What a procedure's message resolves to (its handler's answer). */
export type AnswerOf<M> =
  M extends ProcedureCommand<unknown, infer R>
    ? Awaited<R>
    : M extends ProcedureQuery<unknown, infer R>
      ? Awaited<R>
      : never;

/** What a procedure's message carries as input (`undefined`: none). */
export type InputOf<M> = M extends { input: infer I } ? I : never;
