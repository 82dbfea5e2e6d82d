import {
  ErrorCode,
  McpError,
  type GetPromptResult,
  type Prompt,
} from '@modelcontextprotocol/sdk/types.js';

/** A prompt for a common task, shown to callers who hold every tool it walks through. */
interface PromptSpec {
  prompt: Prompt;
  tools: readonly string[];
  text(args: Record<string, string>): string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** One line of printable text: what an image reference can be, with room to spare. */
const IMAGE = /^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,299}$/;

const PROMPTS: readonly PromptSpec[] = [
  {
    prompt: {
      name: 'deploy-new-image-safely',
      title: 'Deploy a new image safely',
      description: 'Plan, check, deploy and follow a new image for one service.',
      arguments: [
        { name: 'serviceId', description: 'The service (UUID)', required: true },
        { name: 'imageTag', description: 'Image reference with tag or digest', required: true },
      ],
    },
    tools: ['deploymentPlan', 'triggerDeploy'],
    text: ({ serviceId, imageTag }) =>
      [
        `Deploy the image ${imageTag} to the Slipway service ${serviceId}, safely:`,
        '1. Read the resource slipway://deployments/recent (or call recentDeployments with this serviceId) to see what runs now and whether a deployment is already in progress.',
        `2. Call deploymentPlan with {"serviceId": "${serviceId}", "imageTag": "${imageTag}"}. Read every preflight check; report any "warn" or "fail" with its detail.`,
        '3. If isReady is false, stop and explain what must be fixed. Do not try to work around a failed check.',
        '4. If approvalRequired is true, say so: the deploy will open an approval request that another human must decide.',
        `5. Otherwise call triggerDeploy with the same serviceId and imageTag, the planId from the plan (valid 10 minutes) and "wait": true, and summarise the log lines as they arrive.`,
        '6. If the deployment fails, read its logs (slipway://deployments/<id>/logs) and propose a rollback with rollbackPlan; do not roll back without being asked.',
      ].join('\n'),
  },
  {
    prompt: {
      name: 'investigate-failed-deployment',
      title: 'Investigate a failed deployment',
      description: 'Find out why a deployment failed and what to do next.',
      arguments: [{ name: 'deploymentId', description: 'The deployment (UUID)', required: true }],
    },
    tools: ['deploymentDetails', 'deploymentLogs'],
    text: ({ deploymentId }) =>
      [
        `Investigate why the Slipway deployment ${deploymentId} failed:`,
        `1. Read slipway://deployments/${deploymentId} (or call deploymentDetails): its status, the failed step and its detail, the image and the service.`,
        `2. Read slipway://deployments/${deploymentId}/logs (or call deploymentLogs) and quote the lines around the first error.`,
        '3. Compare with the last succeeded deployment of the same service (recentDeployments with its serviceId and status "succeeded"); if you may, call configDiff between the two.',
        '4. Give the most likely cause, the evidence for it, and the next step: a fix to the image or configuration, or a rollback (plan it with rollbackPlan first). Change nothing yourself unless asked.',
      ].join('\n'),
  },
];

export function promptsFor(holds: (tool: string) => boolean): Prompt[] {
  return PROMPTS.filter((p) => p.tools.every(holds)).map((p) => p.prompt);
}

export function getPrompt(
  name: string,
  args: Record<string, string> | undefined,
  holds: (tool: string) => boolean,
): GetPromptResult {
  const spec = PROMPTS.find((p) => p.prompt.name === name && p.tools.every(holds));
  if (!spec) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${name.slice(0, 100)}`);
  const given = args ?? {};
  for (const arg of spec.prompt.arguments ?? []) {
    const value = given[arg.name];
    const pattern = arg.name === 'imageTag' ? IMAGE : UUID;
    if (typeof value !== 'string' || !pattern.test(value)) {
      throw new McpError(ErrorCode.InvalidParams, `Argument ${arg.name} is missing or invalid`, {
        issues: [{ path: arg.name, message: arg.description ?? 'invalid' }],
      });
    }
  }
  return {
    description: spec.prompt.description,
    messages: [{ role: 'user', content: { type: 'text', text: spec.text(given) } }],
  };
}
