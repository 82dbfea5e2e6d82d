import { describe, it } from '@jest/globals';
import {
  ServiceGitSourceRemoved,
  ServiceGitSourceSet,
  type GitSourceData,
} from '../../events/git-sources.events.js';
import { given } from '../../storage/testing/given.js';
import { gitSourceDecider as git, type GitSourceCommand } from './git-source.decider.js';

const KEY_A = {
  publicKey: 'ssh-ed25519 AAAA-a',
  fingerprint: 'SHA256:a',
  privateKeyCiphertext: 'sealed-a',
};
const KEY_B = {
  publicKey: 'ssh-ed25519 AAAA-b',
  fingerprint: 'SHA256:b',
  privateKeyCiphertext: 'sealed-b',
};

type Asked = Omit<GitSourceData, 'deployKey' | 'webhookSecretCiphertext'>;

const ssh: Asked = {
  serviceId: 's1',
  repository: 'git@git.example.com:team/app.git',
  transport: 'ssh',
  host: 'git.example.com',
  port: 22,
  hostKeyFingerprint: 'SHA256:host',
  auth: 'deploy-key',
  token: null,
  rules: [{ kind: 'branch', pattern: 'main', action: 'deploy' }],
  contextPath: '.',
  dockerfile: 'Dockerfile',
};
const https: Asked = {
  ...ssh,
  repository: 'https://git.example.com/team/app.git',
  transport: 'https',
  port: 443,
  hostKeyFingerprint: null,
  auth: 'none',
};

const set = (
  source: Asked,
  freshKey = KEY_B,
  rotateKey = false,
  webhook: { fresh: string; rotate: boolean } = { fresh: 'W1', rotate: false },
): GitSourceCommand => ({
  kind: 'set',
  source,
  freshKey: source.auth === 'deploy-key' ? freshKey : null,
  rotateKey,
  freshWebhookSecret: webhook.fresh,
  rotateWebhookSecret: webhook.rotate,
});

describe('git source decider', () => {
  it('records a new SSH source with the key made for it', () => {
    given(git)
      .when(set(ssh, KEY_A))
      .then(ServiceGitSourceSet({ ...ssh, deployKey: KEY_A, webhookSecretCiphertext: 'W1' }));
  });

  it('keeps the deploy key the host was given when the source changes', () => {
    const rules = [{ kind: 'tag' as const, pattern: 'v*', action: 'approval' as const }];
    given(git, ServiceGitSourceSet({ ...ssh, deployKey: KEY_A, webhookSecretCiphertext: 'W1' }))
      .when(set({ ...ssh, rules }, KEY_B))
      .then(
        ServiceGitSourceSet({ ...ssh, rules, deployKey: KEY_A, webhookSecretCiphertext: 'W1' }),
      );
  });

  it('replaces the deploy key only when a rotation is asked for', () => {
    given(git, ServiceGitSourceSet({ ...ssh, deployKey: KEY_A, webhookSecretCiphertext: 'W1' }))
      .when(set(ssh, KEY_B, true))
      .then(ServiceGitSourceSet({ ...ssh, deployKey: KEY_B, webhookSecretCiphertext: 'W1' }));
  });

  it('records nothing when the same source is set again', () => {
    given(git, ServiceGitSourceSet({ ...ssh, deployKey: KEY_A, webhookSecretCiphertext: 'W1' }))
      .when(set(ssh, KEY_B))
      .thenNothing();
  });

  it('drops the deploy key when the source moves to HTTPS', () => {
    given(git, ServiceGitSourceSet({ ...ssh, deployKey: KEY_A, webhookSecretCiphertext: 'W1' }))
      .when(set(https))
      .then(ServiceGitSourceSet({ ...https, deployKey: null, webhookSecretCiphertext: 'W1' }));
  });

  it('records a token given again: it is sealed afresh', () => {
    const withToken = {
      ...https,
      auth: 'token' as const,
      token: { username: 'git', ciphertext: 'c1' },
    };
    given(
      git,
      ServiceGitSourceSet({ ...withToken, deployKey: null, webhookSecretCiphertext: 'W1' }),
    )
      .when(set({ ...withToken, token: { username: 'git', ciphertext: 'c2' } }))
      .then(
        ServiceGitSourceSet({
          ...withToken,
          token: { username: 'git', ciphertext: 'c2' },
          deployKey: null,
          webhookSecretCiphertext: 'W1',
        }),
      );
  });

  it('removes a source once; removing none records nothing', () => {
    given(git, ServiceGitSourceSet({ ...https, deployKey: null, webhookSecretCiphertext: 'W1' }))
      .when({ kind: 'remove', serviceId: 's1' })
      .then(ServiceGitSourceRemoved({ serviceId: 's1' }));
    given(git).when({ kind: 'remove', serviceId: 's1' }).thenNothing();
    given(
      git,
      ServiceGitSourceSet({ ...https, deployKey: null, webhookSecretCiphertext: 'W1' }),
      ServiceGitSourceRemoved({ serviceId: 's1' }),
    )
      .when({ kind: 'remove', serviceId: 's1' })
      .thenNothing();
  });

  it('makes a new key for an SSH source set again after it was removed', () => {
    given(
      git,
      ServiceGitSourceSet({ ...ssh, deployKey: KEY_A, webhookSecretCiphertext: 'W1' }),
      ServiceGitSourceRemoved({ serviceId: 's1' }),
    )
      .when(set(ssh, KEY_B))
      .then(ServiceGitSourceSet({ ...ssh, deployKey: KEY_B, webhookSecretCiphertext: 'W1' }));
  });

  it('keeps the webhook secret the provider was given unless a rotation is asked for', () => {
    const recorded = ServiceGitSourceSet({
      ...https,
      deployKey: null,
      webhookSecretCiphertext: 'W1',
    });
    given(git, recorded)
      .when(set(https, KEY_B, false, { fresh: 'W2', rotate: false }))
      .thenNothing();
    given(git, recorded)
      .when(set(https, KEY_B, false, { fresh: 'W2', rotate: true }))
      .then(ServiceGitSourceSet({ ...https, deployKey: null, webhookSecretCiphertext: 'W2' }));
  });

  it('gives a source set before webhooks existed a secret when it is set again', () => {
    given(git, ServiceGitSourceSet({ ...https, deployKey: null }))
      .when(set(https, KEY_B, false, { fresh: 'W2', rotate: false }))
      .then(ServiceGitSourceSet({ ...https, deployKey: null, webhookSecretCiphertext: 'W2' }));
  });
});
