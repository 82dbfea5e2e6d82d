import {
  inputDefinitions,
  inputSchemaOf,
  referencedDefinitions,
} from '../src/kernel/input-schema.js';
import type { RegisteredProcedure } from '../src/rpc/procedure-registry.js';
import { ERROR_STATUS } from '../src/common/error-codes.js';

export interface ContractProcedure {
  name: string;
  path: string;
  method: 'GET' | 'POST';
  lane: string;
  auth: string;
  roles: string[];
  scopes: string[];
  description: string;
  mfaExempt: boolean;
  sessionOnly: boolean;
  /**
   * What the call acts on, for access per project: `{service|server|deployment|backup|approval|job|alert:
   * <input field with its id>}` or `{project: <input field naming the project>}`; null: judged
   * by the team role alone.
   */
  project: Record<string, string> | null;
  /** The answer lists things in projects: only those in projects the caller reads. */
  projectList: boolean;
  /**
   * The call concerns the caller alone (or nothing of the team's). A call with none of
   * `project`, `projectList` and `ownOnly` acts on the team as a whole: a token limited to
   * projects is refused it.
   */
  ownOnly: boolean;
  input: Record<string, unknown> | null;
}

export interface ApiContract {
  product: 'Slipway';
  procedureRoot: '/trpc';
  conventions: Record<string, string>;
  /** Every error code an answer may carry, with the HTTP status it comes with. */
  errors: Record<string, number>;
  procedures: ContractProcedure[];
  definitions: Record<string, unknown>;
}

/** The published contract, derived only from the live registry's declarations. */
export function buildContract(procedures: RegisteredProcedure[]): ApiContract {
  const referenced = new Set<string>();
  const entries = [...procedures]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p): ContractProcedure => {
      const input = p.input ? inputSchemaOf(p.input) : null;
      if (input) referencedDefinitions(input, referenced);
      return {
        name: p.name,
        path: p.path,
        method: p.method,
        lane: p.lane,
        auth: p.auth,
        roles: [...p.roles],
        scopes: [...p.scopes].sort(),
        description: p.description,
        mfaExempt: p.mfaExempt === true,
        sessionOnly: p.sessionOnly === true,
        project: p.project ? { ...p.project } : null,
        projectList: p.projectList === true,
        ownOnly: p.ownOnly === true,
        input,
      };
    });
  const definitions = inputDefinitions(referenced);
  return {
    product: 'Slipway',
    procedureRoot: '/trpc',
    conventions: {
      query:
        'GET /trpc/<name>?input=<url-encoded {"json": <input>}>; no input parameter means no input',
      mutation: 'POST /trpc/<name> with Content-Type: application/json and body {"json": <input>}',
      success: '{"result":{"data":{"json": <output>, "meta"?: <superjson meta>}}}',
      error:
        '{"error":{"message": string, "code": string, "data": object}} with the matching HTTP status',
    },
    errors: { ...ERROR_STATUS },
    procedures: entries,
    definitions,
  };
}
