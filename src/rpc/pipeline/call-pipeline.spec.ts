import { describe, expect, it, jest } from '@jest/globals';
import type { Request } from 'express';
import type { AccessService } from '../../access/access.service.js';
import type { RefusalRecorder } from '../../audit/refusals/refusal-recorder.js';
import { AppError } from '../../common/app-error.js';
import { anonymousContext, type RequestContext } from '../../kernel/request-context.js';
import { appended } from '../../storage/append-count.js';
import type { ProcedureRegistry } from '../procedure-registry.js';
import { CallPipeline } from './call-pipeline.js';
import { inputPart, type CallTarget } from './call-target.js';

const ctx: RequestContext = {
  ...anonymousContext('req-1', 'req-1', '127.0.0.1'),
  principal: { id: 'u-1', kind: 'user', role: 'operator', name: 'Olga' },
  authMethod: 'session',
  scopes: ['deploy:start'],
};

const command: CallTarget = {
  access: { auth: 'authenticated', name: 'POST /x', roles: ['operator'], scopes: [] },
  audit: { surface: 'route', name: 'POST /x', lane: 'command' },
};

function pipeline() {
  const recorded = { noEffect: [] as RequestContext[], failures: [] as string[] };
  const access = { authorize: async () => ctx } as unknown as AccessService;
  const refusals = {
    recordNoEffect: async (_req: Request, by: RequestContext) => {
      recorded.noEffect.push(by);
    },
    recordFailure: async (_req: Request, error: AppError) => {
      recorded.failures.push(error.code);
      return error;
    },
  } as unknown as RefusalRecorder;
  const registry = { get: () => undefined } as unknown as ProcedureRegistry;
  return { calls: new CallPipeline(access, refusals, registry), recorded };
}

const request = () => ({ requestId: 'req-1', res: { headersSent: false, setHeader: jest.fn() } });

describe('CallPipeline', () => {
  it('Given a command that appends nothing, When it runs, Then it is recorded as having had no effect', async () => {
    const { calls, recorded } = pipeline();
    await calls.call(request() as unknown as Request, command, [], async () => 'done');
    expect(recorded.noEffect).toEqual([ctx]);
  });

  it('Given a command that appends, When it runs, Then nothing is recorded', async () => {
    const { calls, recorded } = pipeline();
    await calls.call(request() as unknown as Request, command, [], async () => appended(1));
    expect(recorded.noEffect).toEqual([]);
  });

  it('Given a read, When it appends nothing, Then nothing is recorded', async () => {
    const { calls, recorded } = pipeline();
    const read = { ...command, audit: { ...command.audit, lane: 'read' as const } };
    await calls.call(request() as unknown as Request, read, [], async () => 'done');
    expect(recorded.noEffect).toEqual([]);
  });

  it('Given input its class refuses, When the call runs, Then the work never runs and the refusal is judged', async () => {
    const { calls, recorded } = pipeline();
    const work = jest.fn(async () => 'done');
    const refused = calls.call(
      request() as unknown as Request,
      command,
      [inputPart(undefined, () => ({ unexpected: true }))],
      work,
    );
    await expect(refused).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(work).not.toHaveBeenCalled();
    expect(recorded.failures).toEqual(['BAD_REQUEST']);
  });

  it('Given a call never admitted, When it runs, Then it fails instead of running unguarded', async () => {
    const { calls } = pipeline();
    const work = jest.fn(async () => 'done');
    await expect(calls.run(request() as unknown as Request, [], work)).rejects.toBeInstanceOf(
      AppError,
    );
    expect(work).not.toHaveBeenCalled();
  });

  it('Given an answer, When the call succeeds, Then it is marked never to be cached', async () => {
    const { calls } = pipeline();
    const req = request();
    await calls.call(req as unknown as Request, command, [], async () => appended(1));
    expect(req.res.setHeader).toHaveBeenCalledWith('Cache-Control', 'no-store');
  });
});
