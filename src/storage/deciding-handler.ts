import { Injectable, type Type } from '@nestjs/common';
import type { AnswerOf, ProcedureCommand } from '../kernel/procedure-message.js';
import type { Decider } from './decider.js';
import { DeciderRunner, type Decision } from './decider-runner.js';

/** What one call decides: the decider's command, on which stream, and what the caller is told. */
export interface DecisionPlan<S, C, R> {
  stream: string;
  command: C;
  answer: (decision: Decision<S>) => R;
}

/**
 * The handler of a command whose whole use case is one decision: the plan names the stream and
 * the decider's command from the message, the runner appends what the decider decides, and the
 * answer is made from the decision. A use case that first looks something up writes its own.
 *
 * `export class RenameProjectHandler extends decides(projectDecider).on(RenameProject, ({ input }) => …) {}`
 */
export function decides<S, C>(decider: Decider<S, C>) {
  const on = <M extends ProcedureCommand<unknown, unknown>>(
    _message: new (...args: never[]) => M,
    plan: (message: M) => DecisionPlan<S, C, AnswerOf<M>>,
  ): Type<{ execute(message: M): Promise<AnswerOf<M>> }> => {
    @Injectable()
    class Deciding {
      constructor(readonly runner: DeciderRunner) {}

      async execute(message: M): Promise<AnswerOf<M>> {
        const { stream, command, answer } = plan(message);
        return answer(await this.runner.run(stream, decider, command, message.ctx));
      }
    }
    return Deciding;
  };
  /**
   * The removal of what one id names (a drain, a rule, a target): the decider's
   * `{ kind: 'remove', [key]: id }` on `streamOf(id)`, answered `{ [key]: id, removed: true }`,
   * whether there was anything left to remove or not.
   */
  const removes = <K extends string, M extends ProcedureCommand<Record<K, string>, unknown>>(
    message: new (...args: never[]) => M,
    key: { kind: 'remove' } & Record<K, string> extends C ? K : never,
    streamOf: (id: string) => string,
  ) =>
    on(message, ({ input }) => ({
      stream: streamOf(input[key]),
      command: { kind: 'remove', [key]: input[key] } as C,
      answer: () => ({ [key]: input[key], removed: true }) as AnswerOf<M>,
    }));
  return { on, removes };
}
