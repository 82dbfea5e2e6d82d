import type { IQueryHandler } from '@nestjs/cqrs';
import { PageLimit } from '../../common/field-rules.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureQuery } from '../../kernel/procedure-message.js';
import { EVERYONE } from '../../kernel/roles.js';
import { DeploymentIdInput } from '../deployment-id.input.js';
import { DeploymentLogStore, type LogPage } from '../deployment-log-store.js';
import { DeploymentLookup } from '../deployment-lookup.js';
import { AfterLine, readLogLines } from './log-lines.js';

export class DeploymentLogsInput extends DeploymentIdInput {
  @AfterLine()
  afterLine?: number;

  @PageLimit(1000)
  limit?: number;
}

export class DeploymentLogs extends ProcedureQuery<DeploymentLogsInput, LogPage> {}

/** Lines of a deployment that exists (else 404), in order. The MCP tools read it by its name. */
@Procedure.read(DeploymentLogs, {
  name: 'deploymentLogs',
  roles: EVERYONE,
  scopes: ['deploy:read'],
  input: DeploymentLogsInput,
  description: 'Output lines the runner recorded, after a line number, in order.',
  project: { deployment: 'deploymentId' },
})
export class DeploymentLogsHandler implements IQueryHandler<DeploymentLogs> {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly logs: DeploymentLogStore,
  ) {}

  async execute({ input }: DeploymentLogs): Promise<LogPage> {
    await this.lookup.deployment(input.deploymentId);
    return readLogLines(this.logs, input.deploymentId, input);
  }
}
