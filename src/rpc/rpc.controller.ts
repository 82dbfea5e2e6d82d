import { All, Controller, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError, badRequest } from '../common/app-error.js';
import { inputFieldNames } from '../kernel/audit-attribution.js';
import { parseBodyInput, parseQueryInput } from '../kernel/input-validation.js';
import { RouteAccess } from '../kernel/route-access.js';
import { answerBody } from './answer-envelope.js';
import { CallPipeline } from './pipeline/call-pipeline.js';
import { inputPart } from './pipeline/call-target.js';
import { ProcedureRegistry, type RegisteredProcedure } from './procedure-registry.js';

/**
 * `/trpc/<name>`: finds the declaration and checks the method, then runs the procedure through
 * the call pipeline (guard, validation, audit). Errors reach the global filter and take the
 * error shape.
 */
@Controller('trpc')
@RouteAccess({ auth: 'per-procedure' })
export class RpcController {
  constructor(
    private readonly registry: ProcedureRegistry,
    private readonly pipeline: CallPipeline,
  ) {}

  @All(':name')
  async call(@Param('name') name: string, @Req() req: Request, @Res() res: Response) {
    if (req.query.batch !== undefined || name.includes(',')) {
      // What tRPC's httpBatchLink sends: say so, rather than an unknown procedure `a,b`.
      throw badRequest(
        'Batched calls are not supported: call one procedure per request (tRPC: httpLink, not httpBatchLink)',
        [{ path: 'batch', message: 'one procedure per request' }],
      );
    }
    const procedure = this.registry.get(name);
    if (!procedure) {
      throw new AppError('NOT_FOUND', `Unknown procedure ${name.slice(0, 64)}`);
    }
    const result = await this.pipeline.call(
      req,
      {
        access: procedure,
        audit: { surface: 'procedure', name: procedure.name, lane: procedure.lane },
      },
      [inputPart(procedure.input, () => readRawInput(procedure, req))],
      ([input], ctx) => procedure.invoke(input, ctx),
      {
        fields: () => inputFieldNames(readRawInput(procedure, req)),
        before: () => checkMethod(procedure, req),
      },
    );
    res.status(200).type('application/json').send(answerBody(result));
  }
}

function checkMethod(procedure: RegisteredProcedure, req: Request): void {
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  if (method === procedure.method) return;
  const kind = procedure.method === 'GET' ? 'query' : 'mutation';
  throw new AppError(
    'METHOD_NOT_SUPPORTED',
    `${procedure.name} is a ${kind}: call it with ${procedure.method}`,
    { allow: procedure.method },
  );
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
