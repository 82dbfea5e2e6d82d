import { AccessService, type AccessTarget } from '../../access/access.service.js';
import { createHash, randomBytes } from 'node:crypto';
import { Inject } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import { badRequest } from '../../common/app-error.js';
import {
  ServiceGitSourceSet,
  serviceGitStream,
  type CommitStatusTarget,
  type PreviewSettings,
} from '../../events/git-sources.events.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import { ServiceSettingsChecks } from '../commands/service-settings.checks.js';
import { previewCompose } from './previews/preview-compose.js';
import { validateCompose } from '../compose.js';
import { routeIssues, routeValues } from '../routes/route-rules.js';
import type { PreviewSettingsInput } from './preview-settings.input.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { OPERATORS } from '../../kernel/roles.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { StreamFacts } from '../facts/stream-facts.js';
import { assertServerInService, assertServiceActive } from '../lifecycle/lifecycle-rules.js';
import { gitSourceDecider, type FreshDeployKey } from './git-source.decider.js';
import { SetServiceGitSourceInput } from './git-source.input.js';
import { parseGitRepository } from './git-repository.js';

export interface GitSourceAnswer {
  serviceId: string;
  repository: string;
  transport: 'ssh' | 'https';
  auth: 'deploy-key' | 'token' | 'none';
  /** The public key to add as a read-only deploy key at the repository's host (SSH sources). */
  deployKey: { publicKey: string; fingerprint: string } | null;
  /**
   * Where the provider sends push deliveries (relative to Slipway's public address), and the
   * secret it signs them with: shown by the call that made it, never again (null otherwise).
   */
  webhook: { path: string; secret: string | null };
  /** Whether this call recorded a change (setting the same source again records nothing). */
  changed: boolean;
}

/** The route push deliveries for a service are sent to. */
export const gitPushPath = (serviceId: string) => `/api/v1/git/push/${serviceId}`;

export class SetServiceGitSource extends ProcedureCommand<
  SetServiceGitSourceInput,
  GitSourceAnswer
> {}

const refused = (path: string, message: string) =>
  badRequest(`${path}: ${message}`, [{ path, message }]);

/** An Ed25519 key pair in OpenSSH's formats, its private half sealed at once. */
async function freshDeployKey(box: SecretBox, comment: string): Promise<FreshDeployKey> {
  // Loaded on first use, as for connections (ssh2 is CommonJS: its utils are on the default).
  const { utils } = (await import('ssh2')).default;
  const pair = utils.generateKeyPairSync('ed25519', { comment });
  const blob = Buffer.from(pair.public.split(' ')[1], 'base64');
  return {
    publicKey: pair.public.trim(),
    fingerprint: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
    privateKeyCiphertext: box.seal(pair.private),
  };
}

/**
 * The repository a service follows, replaced whole. Over SSH Slipway generates the deploy key
 * (the private half sealed, never shown) and pins the host's key; over HTTPS a token, if given,
 * is sealed. Choosing the code that deploys is as strong as a deploy hook: it takes an operator
 * whose effective scopes hold `service:write` and `deploy:start`.
 */
/** Who may call setServiceGitSource: its declaration's rule, also applied to what else it touches. */
const SET_GIT_SOURCE = {
  roles: OPERATORS,
  scopes: ['service:write', 'deploy:start'],
} as const satisfies Pick<AccessTarget, 'roles' | 'scopes'>;

@Procedure.command(SetServiceGitSource, {
  name: 'setServiceGitSource',
  ...SET_GIT_SOURCE,
  input: SetServiceGitSourceInput,
  description:
    'Sets the git repository a service follows: `{serviceId, repository (git@host:path, ssh://… or https://…), hostKeyFingerprint (SSH), token? (HTTPS, sealed), rules: [{kind: "branch"|"tag", pattern, action: "deploy"|"approval"|"ignore"}], contextPath?, dockerfile?, composeFile?, rotateDeployKey?, rotateWebhookSecret?, statusProvider?, statusApiUrl?, statusToken?, buildServerId?, pushImage?, previews?: {baseDomain, service, port, tls?, limit?, ttlHours?, env?, memoryMb?, cpus?}}` → the deploy key’s public half for SSH sources, and the push webhook’s path and secret (the secret only when this call made it).',
  project: { service: 'serviceId' },
})
export class SetServiceGitSourceHandler implements ICommandHandler<SetServiceGitSource> {
  constructor(
    private readonly facts: StreamFacts,
    private readonly runner: DeciderRunner,
    private readonly settings: ServiceSettingsChecks,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly access: AccessService,
  ) {}

  /**
   * How pull requests are previewed: the preview's route must fit the compose definition its
   * previews run (the service's, without published ports), as a service's own routes must.
   */
  private previewsOf(input: PreviewSettingsInput, service: ServiceDoc): PreviewSettings {
    const limits = { memoryMb: input.memoryMb ?? null, cpus: input.cpus ?? null };
    const text = previewCompose(service.compose, limits);
    const read = text === null ? null : validateCompose(text);
    if (!read?.ok)
      throw refused('previews', 'the service’s compose definition cannot be previewed');
    const compose = read.summary;
    const tls = input.tls ?? 'auto';
    const sample = `pr-1.${input.baseDomain}`;
    if (sample.length > 240) throw refused('previews.baseDomain', 'too long for pr-<n>. before it');
    const misfits = routeIssues(
      routeValues([{ domain: sample, service: input.service, port: input.port, tls }]),
      compose,
    ).map((i) => ({ ...i, path: i.path.replace(/^routes\.0(?=\.|$)/, 'previews') }));
    if (misfits.length)
      throw badRequest('The previews do not fit the service’s compose definition', misfits);
    return {
      baseDomain: input.baseDomain,
      service: input.service,
      port: input.port,
      tls,
      limit: input.limit ?? 3,
      ttlHours: input.ttlHours ?? 72,
      env: this.settings.env(input.env),
      ...limits,
    };
  }

  async execute({ input, ctx }: SetServiceGitSource): Promise<GitSourceAnswer> {
    const service = await this.facts.service(input.serviceId);
    assertServiceActive(service);
    const repo = parseGitRepository(input.repository);
    if ('error' in repo) throw refused('repository', repo.error);
    const ssh = repo.transport === 'ssh';
    if (ssh && !input.hostKeyFingerprint)
      throw refused('hostKeyFingerprint', 'an SSH repository needs its host key pinned');
    if (!ssh && input.hostKeyFingerprint)
      throw refused('hostKeyFingerprint', 'only for SSH repositories');
    if (ssh && (input.token !== undefined || input.tokenUsername !== undefined))
      throw refused('token', 'an SSH repository is read with its deploy key, not a token');
    if (input.tokenUsername !== undefined && input.token === undefined)
      throw refused('tokenUsername', 'only with a token');
    const auth = ssh ? 'deploy-key' : input.token !== undefined ? 'token' : 'none';
    const commitStatus = this.commitStatusOf(input);
    if (input.buildServerId) {
      const builder = await this.facts.server(input.buildServerId);
      assertServerInService(builder);
      // Building on another project's server is judged in that project too.
      await this.access.alsoIn({ name: 'setServiceGitSource', ...SET_GIT_SOURCE }, ctx, {
        server: builder.id,
      });
    }
    const source = {
      serviceId: service.id,
      repository: input.repository,
      transport: repo.transport,
      host: repo.host,
      port: repo.port,
      hostKeyFingerprint: input.hostKeyFingerprint ?? null,
      auth,
      token:
        input.token !== undefined
          ? { username: input.tokenUsername ?? 'git', ciphertext: this.box.seal(input.token) }
          : null,
      rules: (input.rules ?? []).map(({ kind, pattern, action }) => ({ kind, pattern, action })),
      contextPath: input.contextPath ?? '.',
      dockerfile: input.dockerfile ?? 'Dockerfile',
      composeFile: input.composeFile ?? null,
      commitStatus,
      buildServerId: input.buildServerId ?? null,
      pushImage: input.pushImage === true,
      previews: input.previews ? this.previewsOf(input.previews, service) : null,
    } as const;
    const comment = `slipway-${service.name}-${service.environment}`;
    // 32 random bytes: what a provider's hook form accepts (printable, no spaces).
    const webhookSecret = `whsec_${randomBytes(32).toString('base64url')}`;
    const freshWebhookSecret = this.box.seal(webhookSecret);
    const decision = await this.runner.run(
      serviceGitStream(service.id),
      gitSourceDecider,
      {
        kind: 'set',
        source,
        freshKey: ssh ? await freshDeployKey(this.box, comment) : null,
        rotateKey: input.rotateDeployKey === true,
        freshWebhookSecret,
        rotateWebhookSecret: input.rotateWebhookSecret === true,
      },
      ctx,
    );
    const recorded = decision.state.source;
    const key = recorded?.deployKey ?? null;
    return {
      serviceId: service.id,
      repository: input.repository,
      transport: repo.transport,
      auth,
      deployKey: key ? { publicKey: key.publicKey, fingerprint: key.fingerprint } : null,
      webhook: {
        path: gitPushPath(service.id),
        secret: recorded?.webhookSecretCiphertext === freshWebhookSecret ? webhookSecret : null,
      },
      changed: decision.events.some((e) => e.type === ServiceGitSourceSet.type),
    };
  }

  /** Where commit statuses go: all three fields or none (GitHub's and GitLab's API by default). */
  private commitStatusOf(input: SetServiceGitSourceInput): CommitStatusTarget | null {
    const { statusProvider: provider, statusApiUrl, statusToken } = input;
    if (!provider) {
      if (statusApiUrl !== undefined || statusToken !== undefined)
        throw refused('statusProvider', 'say which provider the statuses go to');
      return null;
    }
    if (statusToken === undefined)
      throw refused('statusToken', 'an API token that may write commit statuses');
    const apiUrl = (statusApiUrl ?? DEFAULT_STATUS_API[provider])?.replace(/\/+$/, '');
    if (!apiUrl) throw refused('statusApiUrl', `the API address of your ${provider}`);
    const url = new URL(apiUrl);
    if (url.username || url.password || url.search || url.hash)
      throw refused('statusApiUrl', 'no credentials, query or fragment');
    return { provider, apiUrl, tokenCiphertext: this.box.seal(statusToken) };
  }
}

/** The public providers' API addresses; a Gitea or Forgejo instance is always self-hosted. */
const DEFAULT_STATUS_API: Record<CommitStatusTarget['provider'], string | null> = {
  github: 'https://api.github.com',
  gitlab: 'https://gitlab.com/api/v4',
  gitea: null,
};
