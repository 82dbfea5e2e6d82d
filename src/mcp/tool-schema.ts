import {
  inputDefinitions,
  inputSchemaOf,
  referencedDefinitions,
  type JsonSchema,
} from '../kernel/input-schema.js';
import type { RegisteredProcedure } from '../rpc/procedure-registry.js';
import { MAX_PLAN_ID_LENGTH } from './plan-claims.js';
import { gateOfCommand } from './plan-gates.js';
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, startsDeployment } from './tool-arguments.js';

/** The MCP input schema of a tool: type object at the top, definitions inlined. */
export interface ToolInputSchema extends JsonSchema {
  type: 'object';
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/**
 * A tool's input schema: the procedure's own (derived from its input class, as in the published
 * contract), plus the MCP-only fields: `planId` for a command gated by a plan, `wait` for a
 * command that starts a deployment. Nested classes' definitions are carried inside.
 */
export function toolInputSchema(procedure: RegisteredProcedure): ToolInputSchema {
  const base = procedure.input
    ? inputSchemaOf(procedure.input)
    : { type: 'object', properties: {}, additionalProperties: false };
  const properties = { ...((base.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  const required = [...((base.required as string[] | undefined) ?? [])];
  const gate = gateOfCommand(procedure.name);
  if (gate) {
    properties.planId = {
      type: 'string',
      minLength: 1,
      maxLength: MAX_PLAN_ID_LENGTH,
      description: `The planId answered by ${gate.plan} for this same input, by you, within 10 minutes.`,
    };
    required.push('planId');
  }
  if (startsDeployment(procedure.name)) {
    properties.wait = {
      type: 'boolean',
      description:
        'Wait until the deployment finishes; its log lines arrive as progress notifications when the request has a progressToken.',
    };
    properties.waitSeconds = {
      type: 'integer',
      minimum: 1,
      maximum: MAX_WAIT_SECONDS,
      default: DEFAULT_WAIT_SECONDS,
      description: `With wait: the longest to wait (default ${DEFAULT_WAIT_SECONDS} s, within a client's usual 60 s request timeout). A deployment still running then is answered with wait.finished false: call again with the same planId to keep waiting (it deploys nothing more), or read deploymentDetails.`,
    };
  }
  const definitions = closure(base);
  return {
    ...base,
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    ...(Object.keys(definitions).length ? { definitions } : {}),
  };
}

/** Every definition the schema needs, following references inside definitions too. */
function closure(schema: JsonSchema): Record<string, JsonSchema> {
  const names = referencedDefinitions(schema);
  let definitions = inputDefinitions(names);
  for (;;) {
    const before = names.size;
    for (const definition of Object.values(definitions)) referencedDefinitions(definition, names);
    if (names.size === before) return definitions;
    definitions = inputDefinitions(names);
  }
}
