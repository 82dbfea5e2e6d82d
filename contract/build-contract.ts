import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import {
  targetConstructorToSchema,
  validationMetadatasToSchemas,
} from 'class-validator-jsonschema';
import type { RegisteredProcedure } from '../src/rpc/procedure-registry.js';

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
  input: Record<string, unknown> | null;
}

export interface ApiContract {
  product: 'Slipway';
  procedureRoot: '/trpc';
  conventions: Record<string, string>;
  procedures: ContractProcedure[];
  definitions: Record<string, unknown>;
}

const schemaOptions = {
  refPointerPrefix: '#/definitions/',
  forbidNonWhitelisted: true,
  classTransformerMetadataStorage: defaultMetadataStorage,
};

/** The published contract, derived only from the live registry's declarations. */
export function buildContract(procedures: RegisteredProcedure[]): ApiContract {
  const referenced = new Set<string>();
  const entries = [...procedures]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p): ContractProcedure => {
      const input = p.input
        ? closeObjects(targetConstructorToSchema(p.input, schemaOptions) as Record<string, unknown>)
        : null;
      if (input) collectRefs(input, referenced);
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
        input,
      };
    });
  const all = validationMetadatasToSchemas(schemaOptions) as Record<string, unknown>;
  const definitions: Record<string, unknown> = {};
  for (const name of [...referenced].sort()) {
    definitions[name] = closeObjects(all[name] as Record<string, unknown>);
  }
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
    procedures: entries,
    definitions,
  };
}

/** Validation refuses unknown fields (forbidNonWhitelisted), so the schemas say so too. */
function closeObjects(schema: Record<string, unknown>): Record<string, unknown> {
  return schema.type === 'object' ? { ...schema, additionalProperties: false } : schema;
}

function collectRefs(schema: unknown, into: Set<string>): void {
  if (schema === null || typeof schema !== 'object') return;
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') into.add(value.replace('#/definitions/', ''));
    else collectRefs(value, into);
  }
}
