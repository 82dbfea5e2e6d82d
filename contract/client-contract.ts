import type { ApiContract } from './build-contract.js';

/** Where the typed client package reads the contract from (generated, committed). */
export const CLIENT_CONTRACT_PATH = 'client/src/contract.ts';

type Schema = Record<string, unknown>;

/**
 * The contract as TypeScript for the typed client (`client/`, which the dashboard and the CLI
 * use): each procedure's input type (from its JSON schema), its method, lane, roles and scopes,
 * and the error codes with their statuses, so callers send what the server declares and read
 * its refusals by code. Answers are typed on the client side from the declarations.
 */
export function renderClientContract(contract: ApiContract): string {
  const out: string[] = [
    '// Generated from contract/api-contract.json by `npm run contract:generate`: do not edit.',
    '// `npm run contract:check` (part of `npm test`) fails when this file and the contract differ.',
    '',
  ];
  for (const [name, schema] of Object.entries(contract.definitions)) {
    out.push(`/** Shared input shape \`${name}\`. */`);
    out.push(`export interface ${name} ${objectType(schema as Schema, '')}`, '');
  }
  out.push('/** Each procedure’s input, as the server validates it (`undefined`: none). */');
  out.push('export interface ProcedureInputs {');
  for (const p of contract.procedures) {
    out.push(`  /** ${comment(p.description)} */`);
    out.push(`  ${p.name}: ${p.input ? objectType(p.input, '  ') : 'undefined'};`);
  }
  out.push('}', '');
  out.push('/** How each procedure is called and who may call it. */');
  out.push('export const PROCEDURES = {');
  for (const p of contract.procedures) {
    const entry = {
      method: p.method,
      lane: p.lane,
      auth: p.auth,
      roles: p.roles,
      scopes: p.scopes,
      mfaExempt: p.mfaExempt,
    };
    out.push(`  ${p.name}: ${literal(entry)},`);
  }
  out.push('} as const;', '');
  out.push('export type ProcedureName = keyof typeof PROCEDURES;', '');
  out.push('/** Every error code an answer may carry, with its HTTP status. */');
  out.push(`export const ERROR_STATUS = ${literal(contract.errors)} as const;`, '');
  out.push('export type ErrorCode = keyof typeof ERROR_STATUS;');
  out.push('');
  return `${out.join('\n')}`;
}

function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).map(([k, v]) => `${k}: ${literal(v)}`);
    return `{ ${fields.join(', ')} }`;
  }
  return typeof value === 'string' ? `'${value.replace(/[\\']/g, '\\$&')}'` : String(value);
}

function objectType(schema: Schema, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const entries = Object.entries(properties);
  if (entries.length === 0) return 'Record<string, never>';
  const lines = ['{'];
  for (const [field, fieldSchema] of entries) {
    const rules = rulesOf(fieldSchema);
    if (rules) lines.push(`${indent}  /** ${comment(rules)} */`);
    const optional = required.has(field) ? '' : '?';
    lines.push(`${indent}  ${field}${optional}: ${typeOf(fieldSchema, `${indent}  `)};`);
  }
  lines.push(`${indent}}`);
  return lines.join('\n');
}

function typeOf(schema: Schema, indent: string): string {
  if (typeof schema.$ref === 'string') return schema.$ref.replace('#/definitions/', '');
  if (Array.isArray(schema.oneOf)) {
    return [...new Set((schema.oneOf as Schema[]).map((s) => typeOf(s, indent)))].join(' | ');
  }
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const item = typeOf((schema.items ?? {}) as Schema, indent);
      return /^[\w]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

/** The constraints a form can show next to a field: lengths, ranges, formats, patterns. */
function rulesOf(schema: Schema): string {
  const rules: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (min !== undefined && max !== undefined) rules.push(`${min}-${max}${unit}`);
    else if (min !== undefined) rules.push(`at least ${min}${unit}`);
    else if (max !== undefined) rules.push(`at most ${max}${unit}`);
  };
  if (schema.type === 'integer') rules.push('integer');
  range(schema.minimum, schema.maximum, '');
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minItems, schema.maxItems, ' items');
  if (typeof schema.format === 'string') rules.push(schema.format);
  if (typeof schema.pattern === 'string') rules.push(`pattern \`${schema.pattern}\``);
  if (Array.isArray(schema.oneOf)) {
    const formats = (schema.oneOf as Schema[]).map((s) => s.format).filter(Boolean);
    if (formats.length) rules.push(formats.join(' or '));
  }
  return rules.join('; ');
}

function comment(text: string): string {
  return text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();
}
