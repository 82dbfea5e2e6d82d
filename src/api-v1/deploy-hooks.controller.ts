import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AppError, badRequest } from '../common/app-error.js';
import { deliveryPayload } from '../deployments/delivery-payload.js';
import {
  ReceiveDeployHookHandler,
  type HookAnswer,
  type HookDelivery,
} from '../deployments/hooks/receive-deploy-hook.handler.js';
import { inputFieldNames } from '../kernel/audit-attribution.js';
import type { RequestContext } from '../kernel/request-context.js';
import { RouteAccess } from '../kernel/route-access.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';

/** The most a hook delivery may carry: tag and image pushes are a few KiB. */
export const HOOK_BODY_LIMIT_BYTES = 256 * 1024;
/** What the OpenAPI document says of the hook routes' bodies. */
const HOOK_DOCS = {
  summary: 'A delivery for an inbound deploy hook, as its sender sends it (signed)',
  rawBody: {
    types: ['application/json', 'application/x-www-form-urlencoded'],
    description: 'The sender’s payload: JSON, or GitHub’s form encoding (the JSON in `payload`)',
  },
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `POST /api/v1/hooks/{id}`: an inbound deploy hook, through the call pipeline like every call.
 * No session or token: the delivery's HMAC signature is the credential (see
 * src/deployments/hooks/hook-signature.ts), checked by the handler. Refusals (unsigned, forged,
 * stale, replayed, an image the hook moved past, revoked) are on the audit trail like every
 * refused call.
 */
@Controller('api/v1/hooks')
@RouteAccess({ auth: 'public' })
export class DeployHooksController {
  constructor(
    private readonly receive: ReceiveDeployHookHandler,
    private readonly pipeline: CallPipeline,
  ) {}

  @Post(':hookId')
  @HttpCode(202)
  @RouteAccess({ auth: 'public', ...HOOK_DOCS })
  deliver(@Param('hookId') hookId: string, @Req() req: Request): Promise<HookAnswer> {
    return this.call(req, 'POST /api/v1/hooks/:hookId', hookId, () => delivery(hookId, req));
  }

  /**
   * `POST /api/v1/hooks/{id}/{token}`: the hook's unsigned URL, for senders that sign nothing
   * (Docker Hub), taken only by a hook made with `unsignedUrl`. Weaker: whoever sees the URL can
   * post to it.
   */
  @Post(':hookId/:token')
  @HttpCode(202)
  @RouteAccess({
    auth: 'public',
    ...HOOK_DOCS,
    summary:
      'An unsigned delivery (Docker Hub) at the unsigned URL of a hook made with unsignedUrl',
  })
  deliverUnsigned(
    @Param('hookId') hookId: string,
    @Param('token') token: string,
    @Req() req: Request,
  ): Promise<HookAnswer> {
    return this.call(req, 'POST /api/v1/hooks/:hookId/:token', hookId, () => ({
      ...delivery(hookId, req),
      urlToken: token.slice(0, 100),
    }));
  }

  /** Through the call pipeline: what goes wrong reading the delivery is refused and audited too. */
  private call(
    req: Request,
    route: string,
    hookId: string,
    read: () => HookDelivery,
  ): Promise<HookAnswer> {
    let payload: unknown = null;
    return this.pipeline.call(
      req,
      { access: { auth: 'signed' }, audit: { surface: 'route', name: route, lane: 'command' } },
      [],
      (_, anonymous) => {
        const hook = read();
        payload = hook.payload;
        return this.receive.execute(hook, anonymous);
      },
      {
        fields: () => inputFieldNames(payload),
        // Nothing deployed: still a call someone made with the hook's secret.
        noEffect: (answer, _appended, anonymous) =>
          answer.status === 'pong' || answer.status === 'ignored'
            ? hookCaller(anonymous, hookId)
            : null,
      },
    );
  }
}

function delivery(hookId: string, req: Request): HookDelivery {
  if (!UUID.test(hookId)) throw new AppError('NOT_FOUND', 'No such deploy hook');
  const raw = req.rawBody;
  if (!raw)
    throw badRequest(
      'A hook delivery is a JSON body (application/json) or GitHub’s form encoding (application/x-www-form-urlencoded)',
    );
  if (raw.length > HOOK_BODY_LIMIT_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'A hook delivery is at most 256 KiB');
  }
  const payload = deliveryPayload(req.header('content-type'), raw);
  if (payload === null) throw badRequest('The delivery’s body is not readable JSON');
  return { hookId, header: (name: string) => req.header(name), rawBody: raw, payload };
}

function hookCaller(anonymous: RequestContext, hookId: string): RequestContext {
  return {
    ...anonymous,
    principal: { id: hookId, kind: 'agent', role: 'operator', name: 'hook' },
    authMethod: 'hook',
  };
}
