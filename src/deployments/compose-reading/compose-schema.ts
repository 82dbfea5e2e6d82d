import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FieldIssue } from '../../common/app-error.js';

/**
 * The Compose specification's published JSON schema (draft-07), as the `dclint` package ships
 * it; compiled once, on first use.
 */
let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  if (compiled) return compiled;
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('dclint/package.json')), 'schemas/compose.schema.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  // Its meta-schema URL is one ajv does not know by that spelling; the schema itself is draft-07.
  delete schema.$schema;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  compiled = ajv.compile(schema);
  return compiled;
}

/**
 * Where a normalized compose document breaks the Compose specification's schema, at most
 * `limit` issues. Of the alternatives a `oneOf` offers, ajv reports every branch's failure:
 * only the deepest failure at each path is kept, the one that says what the value lacks.
 */
export function schemaIssues(document: unknown, limit = 10): FieldIssue[] {
  const validate = validator();
  if (validate(document)) return [];
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'oneOf').slice(0, 200);
  const byPath = new Map<string, ErrorObject>();
  for (const error of errors) {
    const path = pathOf(error);
    if (!byPath.has(path)) byPath.set(path, error);
  }
  // A parent's failure adds nothing when a child of it is reported.
  const paths = [...byPath.keys()];
  return paths
    .filter((p) => !paths.some((q) => q !== p && (q.startsWith(`${p}.`) || q.startsWith(`${p}[`))))
    .slice(0, limit)
    .map((path) => ({ path, message: messageOf(byPath.get(path)!) }));
}

function pathOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let path = 'compose';
  for (const segment of segments) path += /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`;
  if (error.keyword === 'additionalProperties') {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    path += `.${key}`;
  }
  return path;
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return 'is not a Compose key';
  if (error.keyword === 'required')
    return `needs ${(error.params as { missingProperty: string }).missingProperty}`;
  return error.message ?? 'is not what the Compose specification allows';
}
