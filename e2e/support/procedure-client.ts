import { readFileSync } from 'node:fs';
import SuperJSON from 'superjson';
import type { ErrorCode } from '../../src/common/error-codes.js';
import type { AccessProcedures } from '../../src/access/access.procedures.js';
import type { DeploymentCommandProcedures } from '../../src/deployments/deployments-command.procedures.js';
import type { DeploymentQueryProcedures } from '../../src/deployments/deployments-query.procedures.js';
import type { ProcedureMessages } from '../../contract/procedure-messages.generated.js';
import type { AnswerOf, InputOf } from '../../src/kernel/procedure-message.js';
import type { IdentityProcedures } from '../../src/identity/identity.procedures.js';
import type { MfaProcedures } from '../../src/identity/mfa/mfa.procedures.js';
import type { SecurityProcedures } from '../../src/security/security.procedures.js';
import { call } from './identity.js';

/** A procedures class as a client sees it: each method takes its input and resolves its answer. */
type Callable<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] extends (
    input: infer I,
    ...rest: never[]
  ) => infer R
    ? (input?: I) => Promise<Awaited<R>>
    : never;
};

/** Each procedure declared on its handler: takes its input and resolves its answer. */
type Messages = {
  [N in keyof ProcedureMessages]: (
    input?: InputOf<ProcedureMessages[N]>,
  ) => Promise<AnswerOf<ProcedureMessages[N]>>;
};

/** Every procedure of the application, typed by its declaration. */
export type SlipwayClient = Messages &
  Callable<AccessProcedures> &
  Callable<DeploymentCommandProcedures> &
  Callable<DeploymentQueryProcedures> &
  Callable<IdentityProcedures> &
  Callable<MfaProcedures> &
  Callable<SecurityProcedures>;

/** A refused call: the HTTP status and the error of the documented shape. */
export class ProcedureError extends Error {
  constructor(
    readonly status: number,
    readonly error: { message: string; code: ErrorCode; data: Record<string, unknown> },
  ) {
    super(`${error.code}: ${error.message}`);
  }
}

const contract = JSON.parse(
  readFileSync(new URL('../../contract/api-contract.json', import.meta.url), 'utf8'),
) as { procedures: { name: string; method: 'GET' | 'POST' }[] };
const methods = new Map(contract.procedures.map((p) => [p.name, p.method]));

/**
 * Calls procedures over HTTP by name, each with its declared input and answer type, the HTTP
 * method taken from the published contract (so a test reads like a caller of the API).
 */
export function procedureClient(url: string, auth: Record<string, string>): SlipwayClient {
  return new Proxy({} as SlipwayClient, {
    get: (_target, name) => {
      const method = typeof name === 'string' ? methods.get(name) : undefined;
      if (!method) throw new Error(`${String(name)} is not in the contract`);
      return async (input?: unknown) => {
        const res = await call(url, method, name as string, auth, input);
        if (res.status !== 200) throw new ProcedureError(res.status, res.body.error);
        return SuperJSON.deserialize(res.body.result.data);
      };
    },
  });
}
