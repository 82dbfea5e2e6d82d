import { expect } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { DeploymentStateMachine } from '../../src/deployments/deployment-state-machine.js';
import { anonymousContext, type RequestContext } from '../../src/kernel/request-context.js';
import { call } from './identity.js';

export const FINGERPRINT = `SHA256:${'Qm9vdHN0cmFwcGVkIGhvc3Qga2V5IGZvciB0ZXN0cyE'.slice(0, 43)}`;
export const PRIVATE_KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END OPENSSH PRIVATE KEY-----\n';
export const COMPOSE =
  'services:\n  api:\n    image: ghcr.io/acme/api:1.0.0\n    ports: ["8080:80"]\n';

export function data<T = Record<string, unknown>>(res: {
  status: number;
  body: { result?: { data: { json: T } }; error?: unknown };
}): T {
  expect([res.status, res.body.error ?? null]).toEqual([200, null]);
  return res.body.result!.data.json;
}

/** A ready server and a service on it, registered through the API. */
export async function readyService(
  url: string,
  auth: Record<string, string>,
  options: { name?: string; approvalRule?: string; env?: unknown[]; projectId?: string } = {},
): Promise<{ serverId: string; serviceId: string }> {
  const name = options.name ?? 'api';
  const server = data<{ serverId: string }>(
    await call(url, 'POST', 'registerServer', auth, {
      name: `${name}-host`,
      host: '10.0.0.2',
      sshUser: 'deploy',
      privateKey: PRIVATE_KEY,
      hostKeyFingerprint: FINGERPRINT,
      ...(options.projectId ? { projectId: options.projectId } : {}),
    }),
  );
  data(
    await call(url, 'POST', 'approveServerHostKey', auth, {
      serverId: server.serverId,
      fingerprint: FINGERPRINT,
    }),
  );
  const service = data<{ serviceId: string }>(
    await call(url, 'POST', 'registerService', auth, {
      name,
      environment: 'production',
      serverId: server.serverId,
      imageRepository: 'ghcr.io/acme/api',
      compose: COMPOSE,
      env: options.env ?? [
        { name: 'DATABASE_URL', value: 'postgres://db/app', secret: true },
        { name: 'LOG_LEVEL', value: 'info' },
      ],
      approvalRule: options.approvalRule ?? 'none',
      ...(options.projectId ? { projectId: options.projectId } : {}),
    }),
  );
  return { serverId: server.serverId, serviceId: service.serviceId };
}

/** Drives a deployment to success the way the runner will (start, steps, succeed). */
export async function runToSuccess(
  app: INestApplication,
  deploymentId: string,
  serviceId: string,
  imageRef: string,
): Promise<void> {
  const machine = app.get(DeploymentStateMachine);
  const ctx: RequestContext = {
    ...anonymousContext('runner', 'runner', null),
    authMethod: 'system',
  };
  await machine.apply({ kind: 'start', deploymentId, runnerId: 'test-runner' }, ctx);
  await machine.apply({ kind: 'stepStarted', deploymentId, step: 'pull' }, ctx);
  await machine.apply(
    { kind: 'stepFinished', deploymentId, step: 'pull', ok: true, detail: null },
    ctx,
  );
  await machine.apply(
    { kind: 'succeed', deploymentId, serviceId, imageRef, imageDigest: `sha256:${'c'.repeat(64)}` },
    ctx,
  );
}
