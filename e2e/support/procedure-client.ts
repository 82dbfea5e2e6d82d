import { readFileSync } from 'node:fs';
import SuperJSON from 'superjson';
import type { ErrorCode } from '../../src/common/error-codes.js';
import type { ProcedureMessages } from '../../contract/procedure-messages.generated.js';
import type { AnswerOf, InputOf } from '../../src/kernel/procedure-message.js';
import { call } from './identity.js';

/** Every procedure of the application, typed by its declaration: its input and its answer. */
export type SlipwayClient = {
  [N in keyof ProcedureMessages]: (
    input?: InputOf<ProcedureMessages[N]>,
  ) => Promise<AnswerOf<ProcedureMessages[N]>>;
};

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
