import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AppError, badRequest } from '../common/app-error.js';
import {
  ReceiveGitPushHandler,
  type GitPushAnswer,
} from '../deployments/git/receive-git-push.handler.js';
import type { RequestContext } from '../kernel/request-context.js';
import { RouteAccess } from '../kernel/route-access.js';
import { CallPipeline } from '../rpc/pipeline/call-pipeline.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `POST /api/v1/git/push/{serviceId}`: a push delivery from GitHub, GitLab or Gitea/Forgejo for
 * a service's git source, as the provider sends it (JSON, or GitHub's form encoding), through the
 * call pipeline like every call. No session or token: the delivery's signature (or GitLab's
 * token) is the credential, checked by the handler against the source's webhook secret.
 */
@Controller('api/v1/git/push')
@RouteAccess({ auth: 'public' })
export class GitPushController {
  constructor(
    private readonly receive: ReceiveGitPushHandler,
    private readonly pipeline: CallPipeline,
  ) {}

  @Post(':serviceId')
  @HttpCode(202)
  @RouteAccess({
    auth: 'public',
    summary:
      'A push or pull request delivery from GitHub, GitLab or Gitea for a service’s git source',
    rawBody: {
      types: ['application/json', 'application/x-www-form-urlencoded'],
      description:
        'The provider’s payload: JSON, or GitHub’s form encoding (the JSON in `payload`)',
    },
  })
  deliver(@Param('serviceId') serviceId: string, @Req() req: Request): Promise<GitPushAnswer> {
    return this.pipeline.call(
      req,
      {
        access: { auth: 'signed' },
        audit: { surface: 'route', name: 'POST /api/v1/git/push/:serviceId', lane: 'command' },
      },
      [],
      (_, anonymous) => this.receive.execute(delivery(serviceId, req), anonymous),
      {
        fields: () => [],
        // Nothing deployed: still a call someone made with the source's secret.
        noEffect: (answer, _appended, anonymous) =>
          answer.status === 'pong' || answer.status === 'ignored'
            ? pushCaller(anonymous, serviceId)
            : null,
      },
    );
  }
}

function delivery(serviceId: string, req: Request) {
  if (!UUID.test(serviceId)) throw new AppError('NOT_FOUND', 'No such service');
  const raw = req.rawBody;
  if (!raw?.length)
    throw badRequest(
      'A push delivery is a JSON body (application/json) or GitHub’s form encoding (application/x-www-form-urlencoded)',
    );
  return {
    serviceId: serviceId.toLowerCase(),
    header: (name: string) => req.header(name),
    contentType: req.header('content-type'),
    rawBody: raw,
  };
}

function pushCaller(anonymous: RequestContext, serviceId: string): RequestContext {
  return {
    ...anonymous,
    principal: { id: serviceId, kind: 'agent', role: 'operator', name: 'git push' },
    authMethod: 'hook',
  };
}
