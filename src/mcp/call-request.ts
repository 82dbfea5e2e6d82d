import type { Request } from 'express';

/**
 * One MCP call's view of the HTTP request that carried it: the same headers, address and request
 * id, but audit marks of its own, so that two calls in one request never mix their records.
 */
export function callRequest(req: Request): Request {
  const call = Object.create(req) as Request;
  call.slipwayAudit = {};
  return call;
}
