import { randomUUID } from 'node:crypto';
import type { ICommandHandler } from '@nestjs/cqrs';
import { IsIn } from 'class-validator';
import { DisplayName } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { principalStream } from '../../events/access.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { ADMINS } from '../../kernel/roles.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { assertWithinEffective, scopesOfPreset } from '../authority.js';
import { AGENT_PRESET_NAMES, DEFAULT_AGENT_PRESET } from '../capabilities.js';
import { principalDecider } from '../principal.decider.js';

export interface CreatedAgent {
  principalId: string;
  name: string;
  preset: string;
  role: 'agent';
  capabilities: string[];
}

export class CreateAgentInput {
  @DisplayName()
  name!: string;

  @Omittable()
  @IsIn(AGENT_PRESET_NAMES)
  preset?: string;
}

export class CreateAgent extends ProcedureCommand<CreateAgentInput, CreatedAgent> {}

@Procedure.command(CreateAgent, {
  name: 'createAgent',
  roles: ADMINS,
  scopes: ['members:manage'],
  input: CreateAgentInput,
  description: 'Creates an agent principal with a preset (default agent:read-only).',
})
export class CreateAgentHandler implements ICommandHandler<CreateAgent> {
  constructor(private readonly runner: DeciderRunner) {}

  async execute({ input, ctx }: CreateAgent): Promise<CreatedAgent> {
    const principalId = randomUUID();
    const preset = input.preset ?? DEFAULT_AGENT_PRESET;
    // Narrowing: nobody provisions an agent able to do what their own credential cannot.
    const capabilities = [...scopesOfPreset(preset)];
    assertWithinEffective(ctx, capabilities, `An agent with preset ${preset}`);
    await this.runner.run(
      principalStream(principalId),
      principalDecider,
      { kind: 'createAgent', principalId, name: input.name, preset, createdBy: ctx.principal!.id },
      ctx,
    );
    return { principalId, name: input.name, preset, role: 'agent', capabilities };
  }
}
