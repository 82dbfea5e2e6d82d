// The answer types of the procedures, taken from their declarations (type-only imports: nothing
// of the server reaches the bundle). The contract publishes inputs, not answers, so these come
// from each procedure's message class (contract/procedure-messages.generated.ts, generated from
// the `@Procedure` declarations); the check below fails to compile when a procedure of the
// contract has no declaration there.
import type { ProcedureMessages } from '../../contract/procedure-messages.generated.js';
import type { AnswerOf as AnswerOfMessage } from '../../src/kernel/procedure-message.js';
import type { ProcedureName } from './contract.js';

type Declarations = {
  [N in keyof ProcedureMessages]: AnswerOfMessage<ProcedureMessages[N]>;
};

/** What procedure `N` answers (revived by superjson: Dates are Dates again). */
export type Answer<N extends ProcedureName> = N extends keyof Declarations
  ? Declarations[N]
  : never;

type Undeclared = Exclude<ProcedureName, keyof Declarations>;
/** Compiles only while every procedure of the contract has its declaration above. */
export const everyProcedureDeclared: [Undeclared] extends [never] ? true : Undeclared = true;
