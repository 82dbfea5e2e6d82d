import { Injectable } from '@nestjs/common';
import type {
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { Request } from 'express';
import type { RequestContext } from '../kernel/request-context.js';
import { ToolCatalog } from './tool-catalog.js';
import { ToolRunner } from './tool-runner.js';

/** A read model an agent may want as context, and the procedure that reads it. */
interface ResourceSource {
  procedure: string;
  resource: Omit<Resource, 'uri'> & { uri: string };
  input: Record<string, unknown>;
}

const STATIC: readonly ResourceSource[] = [
  {
    procedure: 'recentDeployments',
    input: { limit: 50 },
    resource: {
      uri: 'slipway://deployments/recent',
      name: 'recent-deployments',
      title: 'Recent deployments',
      description: 'The 50 most recent deployments, newest first (recentDeployments).',
      mimeType: 'application/json',
    },
  },
  {
    procedure: 'infrastructureInventory',
    input: {},
    resource: {
      uri: 'slipway://inventory',
      name: 'inventory',
      title: 'Infrastructure inventory',
      description: 'Servers and the services on them (infrastructureInventory).',
      mimeType: 'application/json',
    },
  },
];

const LOGS = /^slipway:\/\/deployments\/([0-9a-fA-F-]{36})\/logs$/;
const DETAILS = /^slipway:\/\/deployments\/([0-9a-fA-F-]{36})$/;

const TEMPLATES: readonly (ResourceTemplate & { procedure: string })[] = [
  {
    procedure: 'deploymentLogs',
    uriTemplate: 'slipway://deployments/{deploymentId}/logs',
    name: 'deployment-logs',
    title: 'Deployment logs',
    description: "A deployment's log lines, the first 1000 (deploymentLogs).",
    mimeType: 'application/json',
  },
  {
    procedure: 'deploymentDetails',
    uriTemplate: 'slipway://deployments/{deploymentId}',
    name: 'deployment',
    title: 'Deployment',
    description:
      'One deployment: status, steps, snapshot without secret values (deploymentDetails).',
    mimeType: 'application/json',
  },
];

/**
 * Read models as MCP resources. Each is read through its procedure, exactly as the tool of the
 * same name (guard, validation, audit), and listed only to callers who may call it.
 */
@Injectable()
export class Resources {
  constructor(
    private readonly catalog: ToolCatalog,
    private readonly runner: ToolRunner,
  ) {}

  list(caller: RequestContext): Resource[] {
    return STATIC.filter((s) => this.catalog.procedureFor(s.procedure, caller)).map(
      (s) => s.resource,
    );
  }

  templates(caller: RequestContext): ResourceTemplate[] {
    return TEMPLATES.filter((t) => this.catalog.procedureFor(t.procedure, caller)).map(
      ({ procedure: _procedure, ...template }) => template,
    );
  }

  async read(
    uri: string,
    caller: RequestContext,
    req: Request,
    signal: AbortSignal,
  ): Promise<ReadResourceResult> {
    // Loaded already: only the MCP server, which imports the SDK, calls this.
    const { ErrorCode, McpError } = await import('@modelcontextprotocol/sdk/types.js');
    const source = sourceOf(uri);
    const procedure = source && this.catalog.procedureFor(source.procedure, caller);
    if (!source || !procedure) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri.slice(0, 200)}`);
    }
    const result = await this.runner.call(procedure, source.input, req, {
      progress: null,
      signal,
    });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    if (result.isError) {
      throw new McpError(ErrorCode.InvalidParams, text.split('\n')[0], result.structuredContent);
    }
    return { contents: [{ uri, mimeType: 'application/json', text }] };
  }
}

function sourceOf(uri: string): { procedure: string; input: Record<string, unknown> } | null {
  const fixed = STATIC.find((s) => s.resource.uri === uri);
  if (fixed) return fixed;
  const logs = LOGS.exec(uri);
  if (logs) return { procedure: 'deploymentLogs', input: { deploymentId: logs[1], limit: 1000 } };
  const details = DETAILS.exec(uri);
  if (details) return { procedure: 'deploymentDetails', input: { deploymentId: details[1] } };
  return null;
}
