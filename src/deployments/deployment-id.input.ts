import { IsUUID } from 'class-validator';

/**
 * One deployment by id: the input of `deploymentDetails`, extended by those of `cancelDeployment`
 * and `deploymentLogs`.
 */
export class DeploymentIdInput {
  @IsUUID()
  deploymentId!: string;
}
