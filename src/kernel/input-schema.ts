import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import {
  targetConstructorToSchema,
  validationMetadatasToSchemas,
} from 'class-validator-jsonschema';

/** A JSON Schema document, as plain JSON. */
export type JsonSchema = Record<string, unknown>;

const DEFINITIONS = '#/definitions/';

const schemaOptions = {
  refPointerPrefix: DEFINITIONS,
  forbidNonWhitelisted: true,
  classTransformerMetadataStorage: defaultMetadataStorage,
};

/**
 * The JSON Schema of a procedure's input class, derived from its class-validator rules: the one
 * derivation the published contract and the MCP tools share. Nested classes are `$ref`s into
 * `#/definitions/` (see `inputDefinitions`).
 */
export function inputSchemaOf(input: new (...args: never[]) => object): JsonSchema {
  return closeObjects(targetConstructorToSchema(input, schemaOptions) as JsonSchema);
}

/** The named definitions (nested input classes), closed like the inputs that use them. */
export function inputDefinitions(names: Iterable<string>): Record<string, JsonSchema> {
  const all = validationMetadatasToSchemas(schemaOptions) as Record<string, JsonSchema>;
  const definitions: Record<string, JsonSchema> = {};
  for (const name of [...names].sort()) definitions[name] = closeObjects(all[name]);
  return definitions;
}

/** The definition names a schema refers to directly. */
export function referencedDefinitions(schema: unknown, into = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return into;
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') into.add(value.replace(DEFINITIONS, ''));
    else referencedDefinitions(value, into);
  }
  return into;
}

/** Validation refuses unknown fields (forbidNonWhitelisted), so the schemas say so too. */
function closeObjects(schema: JsonSchema): JsonSchema {
  return schema.type === 'object' ? { ...schema, additionalProperties: false } : schema;
}
