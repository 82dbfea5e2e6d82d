import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import SuperJSON from 'superjson';
import type { AppError } from '../common/app-error.js';
import { errorBody } from '../http/error-response.js';

/** A procedure's answer as a tool result: JSON text, and structured when it is an object. */
export function toolResult(value: unknown): CallToolResult {
  const json = SuperJSON.serialize(value ?? null).json as unknown;
  return {
    content: [{ type: 'text', text: JSON.stringify(json) }],
    ...(isObject(json) ? { structuredContent: json } : {}),
  };
}

/**
 * An error in the documented shape (`{error: {message, code, data}}`, `data.requestId` always,
 * `data.issues` for BAD_REQUEST, `data.requiredScopes`/`grantedScopes` for FORBIDDEN) as an MCP
 * tool error, so the model sees what went wrong and can correct its call.
 */
export function toolError(error: AppError, requestId: string): CallToolResult {
  const body = errorBody(error, requestId);
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}\n${JSON.stringify(body)}` }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
