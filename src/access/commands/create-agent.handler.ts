import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { principalStream } from '../../events/access.events.js';
import type { CreateAgentInput } from '../access.inputs.js';
import { assertWithinEffective, scopesOfPreset } from '../authority.js';
import { DEFAULT_AGENT_PRESET } from '../capabilities.js';
import { principalDecider } from '../principal.decider.js';
import type { RequestContext } from '../../kernel/request-context.js';

export interface CreatedAgent {
  principalId: string;
  name: string;
  preset: string;
  role: 'agent';
  capabilities: string[];
}

@Injectable()
export class CreateAgentHandler {
  constructor(private readonly runner: DeciderRunner) {}

  async execute(input: CreateAgentInput, ctx: RequestContext): Promise<CreatedAgent> {
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
