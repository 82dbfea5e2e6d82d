import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import request from 'supertest';
import { data, readyService } from './deployments.js';
import { call } from './identity.js';

/** GitHub's own sample `push` deliveries: a branch push of Codertocat/Hello-World. */
const examples = createRequire(import.meta.url)(
  '@octokit/webhooks-examples',
) as WebhookDefinition[];
const githubPush = (examples.find((e) => e.name === 'push')!.examples as Record<string, unknown>[])
  .filter((p) => p.ref === 'refs/heads/master')
  .at(0)!;

/** The repository GitHub's samples push to, as a source follows it. */
export const REPOSITORY = 'https://github.com/Codertocat/Hello-World.git';
export const commitOf = (n: number) => n.toString(16).padStart(40, 'a');

/**
 * A branch push as GitHub sends it, with the head commit changed to `commit` (the sample created
 * the branch: it moved from all zeros unless `extra.before` says otherwise).
 */
export const githubBody = (ref: string, commit: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...githubPush, ref, after: commit, ...extra });

export interface GithubDelivery {
  /** Signs with this secret instead; null: sends no signature at all. */
  secret?: string | null;
  event?: string;
  id?: string;
  form?: boolean;
}

/** A delivery to a service's push webhook, as GitHub sends it (signed with `secret`). */
export async function githubDelivery(
  url: string,
  serviceId: string,
  secret: string,
  body: string,
  options: GithubDelivery = {},
): Promise<request.Response> {
  const sent = options.form ? `payload=${encodeURIComponent(body)}` : body;
  const req = request(url)
    .post(`/api/v1/git/push/${serviceId}`)
    .set('Content-Type', options.form ? 'application/x-www-form-urlencoded' : 'application/json')
    .set('X-GitHub-Event', options.event ?? 'push')
    .set('X-GitHub-Delivery', options.id ?? randomUUID());
  const key = options.secret === undefined ? secret : options.secret;
  if (key !== null) req.set('X-Hub-Signature-256', await sign(key, sent));
  return req.send(sent);
}

/** A service following GitHub's sample repository (`master` deploys), and its webhook secret. */
export async function gitService(
  url: string,
  auth: Record<string, string>,
  name: string,
): Promise<{ serviceId: string; secret: string }> {
  const { serviceId } = await readyService(url, auth, { name });
  const answer = data<{ webhook: { secret: string | null } }>(
    await call(url, 'POST', 'setServiceGitSource', auth, {
      serviceId,
      repository: REPOSITORY,
      rules: [{ kind: 'branch', pattern: 'master', action: 'deploy' }],
    }),
  );
  return { serviceId, secret: answer.webhook.secret! };
}
