import { Injectable } from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../kernel/request-context.js';
import { ProcedureRegistry, type RegisteredProcedure } from '../rpc/procedure-registry.js';
import { admits } from './caller-access.js';
import { gateOfCommand, gateOfPlan } from './plan-gates.js';
import { toolInputSchema, type ToolInputSchema } from './tool-schema.js';

/**
 * The MCP tools, generated from the procedure registry: one per procedure, with its name,
 * description and input schema. A caller is shown only the tools its effective access admits.
 */
@Injectable()
export class ToolCatalog {
  private readonly schemas = new Map<string, ToolInputSchema>();

  constructor(private readonly registry: ProcedureRegistry) {}

  /** The tools this caller may call, by name. */
  toolsFor(caller: RequestContext): Tool[] {
    return this.registry
      .list()
      .filter((p) => admits(p, caller))
      .map((p) => this.toolOf(p));
  }

  /**
   * The procedure behind a tool name, shown or not: calling a tool one is not shown still goes
   * to the guard, which refuses it (FORBIDDEN with the scopes) and puts it on the audit trail.
   */
  procedureNamed(name: string): RegisteredProcedure | undefined {
    return this.registry.get(name);
  }

  /** The procedure behind a tool name, if this caller is shown it. */
  procedureFor(name: string, caller: RequestContext): RegisteredProcedure | undefined {
    const procedure = this.registry.get(name);
    return procedure && admits(procedure, caller) ? procedure : undefined;
  }

  private toolOf(procedure: RegisteredProcedure): Tool {
    return {
      name: procedure.name,
      title: procedure.name,
      description: describe(procedure),
      inputSchema: this.schemaOf(procedure),
      annotations: {
        readOnlyHint: procedure.lane !== 'command',
        destructiveHint: procedure.lane === 'command',
        idempotentHint: procedure.lane !== 'command',
        openWorldHint: false,
      },
    };
  }

  private schemaOf(procedure: RegisteredProcedure): ToolInputSchema {
    let schema = this.schemas.get(procedure.name);
    if (!schema) {
      schema = toolInputSchema(procedure);
      this.schemas.set(procedure.name, schema);
    }
    return schema;
  }
}

function describe(procedure: RegisteredProcedure): string {
  const lane = `[${procedure.lane} lane]`;
  const command = gateOfCommand(procedure.name);
  if (command) {
    return `${lane} ${procedure.description} Plan first: call ${command.plan} with the same input and pass its planId (valid 10 minutes).`;
  }
  const plan = gateOfPlan(procedure.name);
  if (plan) {
    return `${lane} ${procedure.description} When the plan is ready, its answer carries a planId for ${plan.command}.`;
  }
  return `${lane} ${procedure.description}`;
}
