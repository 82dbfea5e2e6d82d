import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AccessService } from '../access/access.service.js';
import { RefusalRecorder } from '../audit/refusals/refusal-recorder.js';
import { AppError, badRequest } from '../common/app-error.js';
import {
  ReceiveDeployHookHandler,
  type HookAnswer,
} from '../deployments/hooks/receive-deploy-hook.handler.js';
import { RouteAccess } from '../kernel/route-access.js';

/** The most a hook delivery may carry: tag and image pushes are a few KiB. */
export const HOOK_BODY_LIMIT_BYTES = 256 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `POST /api/v1/hooks/{id}`: an inbound deploy hook. No session or token: the delivery's HMAC
 * signature is the credential (see src/deployments/hooks/hook-signature.ts). Refusals (unsigned,
 * forged, stale, replayed, an image the hook moved past, revoked) are on the audit trail like
 * every refused call.
 */
@Controller('api/v1/hooks')
@RouteAccess({ auth: 'public' })
export class DeployHooksController {
  constructor(
    private readonly receive: ReceiveDeployHookHandler,
    private readonly access: AccessService,
    private readonly refusals: RefusalRecorder,
  ) {}

  @Post(':hookId')
  @HttpCode(202)
  async deliver(@Param('hookId') hookId: string, @Req() req: Request): Promise<HookAnswer> {
    if (!UUID.test(hookId)) throw new AppError('NOT_FOUND', 'No such deploy hook');
    const raw = req.rawBody;
    if (!raw) throw badRequest('A hook delivery is a JSON body (Content-Type: application/json)');
    if (raw.length > HOOK_BODY_LIMIT_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', 'A hook delivery is at most 256 KiB');
    }
    const anonymous = this.access.anonymous(req);
    const answer = await this.receive.execute(
      { hookId, header: (name) => req.header(name), rawBody: raw, payload: req.body },
      anonymous,
    );
    if (answer.status === 'pong' || answer.status === 'ignored') {
      // Nothing appended: still a call someone made with the hook's secret.
      await this.refusals.recordNoEffect(req, {
        ...anonymous,
        principal: { id: hookId, kind: 'agent', role: 'operator', name: 'hook' },
        authMethod: 'hook',
      });
    }
    return answer;
  }
}
