import { All, Controller, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import SuperJSON from 'superjson';
import { AccessService } from '../access/access.service.js';
import { AppError, badRequest } from '../common/app-error.js';
import {
  inputFieldNames,
  markAuditTarget,
  recordInputFields,
} from '../kernel/audit-attribution.js';
import { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { RouteAccess } from '../kernel/route-access.js';
import { countingAppends } from '../storage/append-count.js';
import { ProcedureRegistry, type RegisteredProcedure } from './procedure-registry.js';
import { parseBodyInput, parseQueryInput, validateInput } from '../kernel/input-validation.js';

/**
 * `/trpc/<name>`: finds the declaration, checks the method, runs the guard, validates the
 * input, then calls the procedure. Errors reach the global filter and take the error shape.
 */
@Controller('trpc')
@RouteAccess({ auth: 'per-procedure' })
export class RpcController {
  constructor(
    private readonly registry: ProcedureRegistry,
    private readonly access: AccessService,
    private readonly refusals: RefusalRecorder,
  ) {}

  @All(':name')
  async call(@Param('name') name: string, @Req() req: Request, @Res() res: Response) {
    const procedure = this.registry.get(name);
    if (!procedure) {
      throw new AppError('NOT_FOUND', `Unknown procedure ${name.slice(0, 64)}`);
    }
    markAuditTarget(req, { surface: 'procedure', name: procedure.name, lane: procedure.lane });
    recordInputFields(req, () => fieldNamesOf(procedure, req));
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (method !== procedure.method) {
      const kind = procedure.method === 'GET' ? 'query' : 'mutation';
      throw new AppError(
        'METHOD_NOT_SUPPORTED',
        `${procedure.name} is a ${kind}: call it with ${procedure.method}`,
        { allow: procedure.method },
      );
    }
    const ctx = await this.access.authorize(procedure, req);
    const input = await validateInput(procedure.input, readRawInput(procedure, req));
    const { value: result, appended } = await countingAppends(() => procedure.invoke(input, ctx));
    if (procedure.lane === 'command' && appended === 0) {
      await this.refusals.recordNoEffect(req, ctx);
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({ result: { data: SuperJSON.serialize(result ?? null) } });
  }
}

/** For the audit record of a refusal: the names of the fields sent, never their values. */
function fieldNamesOf(procedure: RegisteredProcedure, req: Request): string[] {
  try {
    return inputFieldNames(readRawInput(procedure, req));
  } catch {
    return [];
  }
}

function readRawInput(procedure: RegisteredProcedure, req: Request): unknown {
  if (procedure.method === 'GET') return parseQueryInput(req.query.input);
  const length = Number(req.header('content-length') ?? 0);
  const hasBody = length > 0 || req.header('transfer-encoding') !== undefined;
  if (hasBody && !req.is(['application/json', 'application/*+json'])) {
    throw badRequest('A mutation body must be JSON with Content-Type: application/json');
  }
  return parseBodyInput(req.body as unknown);
}
