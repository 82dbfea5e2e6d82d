import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { keyValues } from '../output.js';
import { stdinFirstLine } from '../user-input.js';
import { answerOrFollow, type Queued, type QueueOptions } from './deployments.commands.js';
import { confirmedCall } from './confirmed-call.js';
import { previewSettings, withPreviewOptions, type PreviewOptions } from './preview-options.js';
import { resolveServer, resolveService } from './resolve.js';
import { scanHostKey } from './server-connection.commands.js';

interface Rule {
  kind: string;
  pattern: string;
  action: string;
}
interface GitSourceAnswer {
  serviceId: string;
  transport: string;
  auth: string;
  deployKey: { publicKey: string; fingerprint: string } | null;
  webhook: { path: string; secret: string | null };
  changed: boolean;
}
interface GitSource {
  repository: string;
  auth: string;
  hostKeyFingerprint: string | null;
  deployKey: { publicKey: string; fingerprint: string } | null;
  tokenUsername: string | null;
  webhook?: boolean;
  commitStatus?: { provider: string; apiUrl: string } | null;
  buildServerId?: string | null;
  pushImage?: boolean;
  previews?: {
    baseDomain: string;
    service: string;
    port: number;
    limit: number;
    ttlHours: number;
  } | null;
  rules: Rule[];
  contextPath: string;
  dockerfile: string;
  composeFile?: string | null;
  setAt: string;
}

/** `branch:main=deploy`, `tag:v*=approval`, `branch:*=ignore`. */
function parseRule(text: string): Rule {
  const match = /^(branch|tag):([^=]+)=(deploy|approval|ignore)$/.exec(text.trim());
  if (!match)
    throw new CliError(
      'BAD_USAGE',
      `--rule ${text}: write kind:pattern=action, e.g. branch:main=deploy or tag:v*=approval`,
    );
  return { kind: match[1], pattern: match[2], action: match[3] };
}

const ruleText = (r: Rule) => `${r.kind}:${r.pattern}=${r.action}`;

/** The SSH host and port of `git@host:path` or `ssh://[user@]host[:port]/path`; else null. */
function sshEndpoint(repository: string): { host: string; port: number } | null {
  const url = /^ssh:\/\/(?:[^@/]+@)?([^:/]+)(?::(\d+))?\//.exec(repository);
  if (url) return { host: url[1], port: Number(url[2] ?? 22) };
  const scp = /^[^@/:]+@([^:/]+):/.exec(repository);
  return scp ? { host: scp[1], port: 22 } : null;
}

export function registerGitCommands(program: Command): void {
  const git = program
    .command('git')
    .description('the git repository a service follows: deploy key, host key, rules');
  withPreviewOptions(git.command('set <service> <repository>'))
    .description(
      'follow a repository (git@host:path, ssh://… or https://…); prints the deploy key to add',
    )
    .option(
      '--host-key <fingerprint>',
      'SSH: the host key (SHA256:…) the provider publishes; without it Slipway fetches it and asks you to trust it',
    )
    .option(
      '--token-stdin',
      'HTTPS: read an access token from standard input (else SLIPWAY_GIT_TOKEN, if set)',
    )
    .option('--token-user <name>', 'HTTPS: the user name the token is presented under')
    .option('--rule <rule...>', 'kind:pattern=action, e.g. branch:main=deploy (first match wins)')
    .option('--context-path <path>', 'the build context inside the repository', '.')
    .option('--dockerfile <path>', 'the Dockerfile inside the context', 'Dockerfile')
    .option(
      '--compose-file <path>',
      'run the repository’s compose file at each commit (a pull request’s preview runs its own) instead of the service’s',
    )
    .option('--rotate-key', 'SSH: make a new deploy key (the old one stops working)')
    .option('--rotate-webhook-secret', 'make a new push webhook secret (the old one stops working)')
    .option(
      '--status-provider <provider>',
      'report deployments as commit statuses: github, gitlab or gitea (API token from SLIPWAY_GIT_STATUS_TOKEN)',
    )
    .option('--status-api-url <url>', 'the provider API (default GitHub’s or GitLab.com’s)')
    .option('--build-server <server>', 'a registered server that builds (default: the service’s)')
    .option('--push-image', 'push built images to the service’s registry; its server pulls them')
    .option('--yes', 'trust a fetched host key without asking')
    .action(
      action(
        async (
          run,
          ref: string,
          repository: string,
          opts: {
            hostKey?: string;
            tokenStdin?: boolean;
            tokenUser?: string;
            rule?: string[];
            contextPath: string;
            dockerfile: string;
            composeFile?: string;
            rotateKey?: boolean;
            rotateWebhookSecret?: boolean;
            statusProvider?: string;
            statusApiUrl?: string;
            buildServer?: string;
            pushImage?: boolean;
            yes?: boolean;
          } & PreviewOptions,
        ) => {
          const client = run.client();
          const serviceId = await resolveService(client, ref);
          // Trust on first use, but never silently: the key fetched is shown before it is pinned.
          const ssh = sshEndpoint(repository);
          let hostKey = opts.hostKey;
          if (ssh && !hostKey) {
            const scan = await scanHostKey(client, ssh.host, ssh.port);
            run.out.progress(`${ssh.host}:${ssh.port} presents ${scan.keyType ?? 'a'} host key`);
            run.out.progress(`  ${scan.fingerprint}`);
            run.out.progress("Compare it with the fingerprints the repository's host publishes.");
            await confirm(opts.yes, `Trust host key ${scan.fingerprint}`);
            hostKey = scan.fingerprint;
          }
          // Never a flag: argv shows in shell history and `ps`.
          const token = opts.tokenStdin
            ? await stdinFirstLine()
            : process.env.SLIPWAY_GIT_TOKEN || undefined;
          const answer = await client.mutation<GitSourceAnswer>('setServiceGitSource', {
            serviceId,
            repository,
            hostKeyFingerprint: hostKey,
            token,
            tokenUsername: opts.tokenUser,
            rules: (opts.rule ?? []).map(parseRule),
            contextPath: opts.contextPath,
            dockerfile: opts.dockerfile,
            composeFile: opts.composeFile,
            rotateDeployKey: opts.rotateKey || undefined,
            rotateWebhookSecret: opts.rotateWebhookSecret || undefined,
            buildServerId: opts.buildServer
              ? await resolveServer(client, opts.buildServer)
              : undefined,
            pushImage: opts.pushImage || undefined,
            statusProvider: opts.statusProvider,
            statusApiUrl: opts.statusApiUrl,
            // Like the repository's token: never a flag.
            statusToken: opts.statusProvider
              ? process.env.SLIPWAY_GIT_STATUS_TOKEN || undefined
              : undefined,
            previews: previewSettings(opts),
          });
          const hook = answer.webhook;
          run.out.ok(answer, () =>
            [
              keyValues([
                ['service', answer.serviceId],
                ['repository', repository],
                ['auth', answer.auth],
                ['changed', answer.changed ? 'yes' : 'no (already set)'],
              ]),
              answer.deployKey
                ? `\nAdd this read-only deploy key at the repository's host (${answer.deployKey.fingerprint}):\n${answer.deployKey.publicKey}`
                : '',
              `\nPush webhook: ${new URL(hook.path, client.connection.url).href} (JSON or form; push and pull request events)`,
              hook.secret
                ? `\nIts secret, shown this once (GitHub/Gitea: the secret; GitLab: the token):\n${hook.secret}`
                : '\nIts secret was shown when it was made (--rotate-webhook-secret makes a new one).',
            ].join(''),
          );
        },
      ),
    );
  git
    .command('show <service>')
    .description('the repository a service follows (never its token or private key)')
    .action(
      action(async (run, ref: string) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        const { gitSource } = await client.query<{ gitSource: GitSource | null }>(
          'serviceDetails',
          { serviceId },
        );
        run.out.ok(gitSource, () =>
          gitSource
            ? keyValues([
                ['repository', gitSource.repository],
                ['auth', gitSource.auth],
                ['host key', gitSource.hostKeyFingerprint ?? '-'],
                ['deploy key', gitSource.deployKey?.publicKey ?? '-'],
                ['token user', gitSource.tokenUsername ?? '-'],
                ['push webhook', gitSource.webhook ? 'yes' : 'no (set the source again)'],
                [
                  'commit statuses',
                  gitSource.commitStatus
                    ? `${gitSource.commitStatus.provider} (${gitSource.commitStatus.apiUrl})`
                    : '-',
                ],
                ['rules', gitSource.rules.map(ruleText).join(' ') || '(none: nothing deploys)'],
                ['context', `${gitSource.contextPath} (${gitSource.dockerfile})`],
                ['compose file', gitSource.composeFile ?? 'the service’s'],
                [
                  'builds on',
                  `${gitSource.buildServerId ?? 'the service’s server'}${gitSource.pushImage ? ', pushed to the registry' : ''}`,
                ],
                [
                  'previews',
                  gitSource.previews
                    ? `pr-<n>.${gitSource.previews.baseDomain} → ${gitSource.previews.service}:${gitSource.previews.port} (at most ${gitSource.previews.limit}, ${gitSource.previews.ttlHours} h)`
                    : '-',
                ],
                ['set', gitSource.setAt],
              ])
            : 'This service follows no repository.',
        );
      }),
    );
  git
    .command('deploy <service> <commit>')
    .description('build a commit of the repository on the service’s server and deploy it')
    .option('--ref <ref>', 'the branch or tag it is on, for the record (refs/heads/main)')
    .option('--wait', 'follow the build and deployment until it ends; non-zero unless it succeeds')
    .option('--reason <text>', 'used if the service requires approval (12-280 characters)')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, ref: string, commit: string, opts: QueueOptions & { ref?: string }) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        await confirm(opts.yes, `Build ${commit.slice(0, 12)} and deploy it to ${ref}`);
        const result = await client.mutation<Queued>('deployServiceCommit', {
          serviceId,
          commit,
          ref: opts.ref,
          reason: opts.reason,
        });
        return answerOrFollow(run, client, result, opts.wait);
      }),
    );
  confirmedCall(git, {
    command: 'remove <service>',
    description: 'stop following the repository; its deploy key and token are dropped',
    resolve: resolveService,
    ask: (ref) => `Stop ${ref} following its repository`,
    call: (client, serviceId) =>
      client.mutation<{ serviceId: string; removed: boolean }>('removeServiceGitSource', {
        serviceId,
      }),
    said: (answer) => (answer.removed ? 'Removed.' : 'This service followed no repository.'),
  });
}
