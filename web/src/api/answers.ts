// The answer types of the procedures, taken from their declarations (type-only imports: nothing
// of the server reaches the bundle). The contract publishes inputs, not answers, so these come
// from the same methods the registry routes to; the check below fails to compile when a procedure
// of the contract has no declaration here.
import type { AccessProcedures } from '../../../src/access/access.procedures.js';
import type { DeploymentCommandProcedures } from '../../../src/deployments/deployments-command.procedures.js';
import type { DeploymentQueryProcedures } from '../../../src/deployments/deployments-query.procedures.js';
import type { ServerConnectionProcedures } from '../../../src/deployments/server-connection.procedures.js';
import type { IdentityProcedures } from '../../../src/identity/identity.procedures.js';
import type { MfaProcedures } from '../../../src/identity/mfa/mfa.procedures.js';
import type { InviteProcedures } from '../../../src/identity/invites/invites.procedures.js';
import type { LifecycleProcedures } from '../../../src/deployments/lifecycle/lifecycle.procedures.js';
import type { SecurityProcedures } from '../../../src/security/security.procedures.js';
import type { DeployHookProcedures } from '../../../src/deployments/hooks/deploy-hooks.procedures.js';
import type { ProcedureMessages } from '../../../contract/procedure-messages.generated.js';
import type { AnswerOf as AnswerOfMessage } from '../../../src/kernel/procedure-message.js';
import type { ProcedureName } from './contract';

/** The public methods of a procedures class, each as the answer it resolves to. */
type Answers<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => infer R ? Awaited<R> : never;
};

// One mapped type per class: intersecting the classes themselves would give `never`, as
// several have private members of the same name.
type Declarations = {
  [N in keyof ProcedureMessages]: AnswerOfMessage<ProcedureMessages[N]>;
} & Answers<AccessProcedures> &
  Answers<InviteProcedures> &
  Answers<LifecycleProcedures> &
  Answers<DeploymentCommandProcedures> &
  Answers<DeploymentQueryProcedures> &
  Answers<DeployHookProcedures> &
  Answers<IdentityProcedures> &
  Answers<MfaProcedures> &
  Answers<SecurityProcedures> &
  Answers<ServerConnectionProcedures>;

/** What procedure `N` answers (after superjson: Dates are Dates again). */
export type AnswerOf<N extends ProcedureName> = N extends keyof Declarations
  ? Declarations[N]
  : never;

type Undeclared = Exclude<ProcedureName, keyof Declarations>;
/** Compiles only while every procedure of the contract has its declaration above. */
export const everyProcedureDeclared: [Undeclared] extends [never] ? true : Undeclared = true;
