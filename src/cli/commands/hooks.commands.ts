import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { keyValues } from '../output.js';
import { confirmedCall } from './confirmed-call.js';
import { resolveService } from './resolve.js';

interface Rule {
  source: string;
  pattern: string;
  image: string;
}

interface Hook {
  hookId: string;
  serviceId: string;
  name: string;
  url: string;
  rules: Rule[];
  status: string;
  secret?: string;
}

/** `tag:v*=registry/app:{version}` or `image:*=registry/app:{tag}`. */
function parseRule(text: string): Rule {
  const match = /^(tag|image):([^=]+)=(.+)$/.exec(text.trim());
  if (!match)
    throw new CliError(
      'BAD_USAGE',
      `--rule ${text}: write source:pattern=image, e.g. tag:v*=ghcr.io/acme/api:{version}`,
    );
  return { source: match[1], pattern: match[2], image: match[3] };
}

export function registerHookCommands(program: Command): void {
  const hooks = program
    .command('hooks')
    .description('inbound deploy webhooks: a signed POST deploys an image by rule');
  hooks
    .command('list')
    .description('deploy hooks (never their secrets)')
    .option('--service <service>', 'only this service (id, name or name@environment)')
    .action(
      action(async (run, opts: { service?: string }) => {
        const client = run.client();
        const serviceId = opts.service ? await resolveService(client, opts.service) : undefined;
        const page = await client.query<{ items: Hook[] }>('deployWebhooks', { serviceId });
        run.out.listing(page, page.items, [
          ['id', (h) => h.hookId],
          ['name', (h) => h.name],
          ['service', (h) => h.serviceId],
          ['status', (h) => h.status],
          ['rules', (h) => h.rules.map((r) => `${r.source}:${r.pattern}=${r.image}`).join(' ')],
          ['url', (h) => h.url],
        ]);
      }),
    );
  hooks
    .command('create <service> <name>')
    .description('a hook for a service; prints its URL and signing secret once')
    .requiredOption(
      '--rule <rule...>',
      'source:pattern=image, e.g. tag:v*=ghcr.io/acme/api:{version} (first match wins)',
    )
    .option(
      '--unsigned-url',
      'also print a URL that takes unsigned deliveries (Docker Hub signs nothing): weaker, keep it secret',
    )
    .action(
      action(
        async (run, ref: string, name: string, opts: { rule: string[]; unsignedUrl?: boolean }) => {
          const client = run.client();
          const serviceId = await resolveService(client, ref);
          const hook = await client.mutation<Hook & { unsignedUrl: string | null }>(
            'createDeployWebhook',
            {
              serviceId,
              name,
              rules: opts.rule.map(parseRule),
              unsignedUrl: opts.unsignedUrl || undefined,
            },
          );
          run.out.ok(hook, () =>
            [
              keyValues([
                ['hook', hook.hookId],
                ['url', hook.url],
                ['service', hook.serviceId],
              ]),
              `\nSigning secret (shown once): ${hook.secret}`,
              '\nGitHub and Gitea: the webhook’s Secret; GitLab: its Secret token or Signing token; or sign with X-Slipway-Signature + X-Slipway-Timestamp + X-Slipway-Delivery.',
              hook.unsignedUrl
                ? `\nUnsigned URL for Docker Hub (shown once; whoever has it can deploy): ${hook.unsignedUrl}`
                : '',
            ].join(''),
          );
        },
      ),
    );
  confirmedCall(hooks, {
    command: 'revoke <hookId>',
    description: 'refuse every delivery of the hook from now on',
    ask: (hookId) => `Revoke hook ${hookId}`,
    call: (client, hookId) =>
      client.mutation<{ hookId: string; status: string }>('revokeDeployWebhook', { hookId }),
    said: (revoked) => `Hook ${revoked.hookId} revoked.`,
  });
}
