import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { IsIn } from 'class-validator';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { principalStream } from '../../events/access.events.js';
import { DisplayName } from '../../common/field-rules.js';
import { Omittable } from '../../common/omittable.js';
import { AGENT_PRESET_NAMES } from '../capabilities.js';
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

export class CreateAgentInput {
  @DisplayName()
  name!: string;

  @Omittable()
  @IsIn(AGENT_PRESET_NAMES)
  preset?: string;
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
