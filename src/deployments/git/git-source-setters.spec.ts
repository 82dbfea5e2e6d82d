import { describe, expect, it } from '@jest/globals';
import { systemMetadata } from '../../eventstore/event-metadata.js';
import {
  ServiceGitSourceRemoved,
  ServiceGitSourceSet,
  type GitSourceData,
} from '../../events/git-sources.events.js';
import type { EventLike } from '../../storage/decider.js';
import { gitSourceSetters } from './git-source-setters.js';

const source: GitSourceData = {
  serviceId: 's1',
  repository: 'https://git.example.com/team/app.git',
  transport: 'https',
  host: 'git.example.com',
  port: 443,
  hostKeyFingerprint: null,
  auth: 'none',
  deployKey: null,
  token: null,
  rules: [{ kind: 'branch', pattern: 'main', action: 'approval' }],
  contextPath: '.',
  dockerfile: 'Dockerfile',
  webhookSecretCiphertext: 'sealed',
};

/** An event as the store returns it, recorded by `principalId`. */
const by = (principalId: string, event: EventLike): EventLike => ({
  ...event,
  metadata: systemMetadata({ actor: { principalId, kind: 'user', role: 'operator' } }),
});
const fold = (...events: EventLike[]) =>
  events.reduce(gitSourceSetters.evolve, gitSourceSetters.initialState());

describe('who set a git source (the controllers of what its webhook files)', () => {
  it('Given settings and a rotation by two people, Then both, once each', () => {
    expect(
      fold(
        by('u-1', ServiceGitSourceSet(source)),
        by('u-2', ServiceGitSourceSet({ ...source, webhookSecretCiphertext: 'rotated' })),
        by('u-1', ServiceGitSourceSet(source)),
      ),
    ).toEqual(['u-1', 'u-2']);
  });

  it('Given a source removed and set again by someone else, Then the earlier setter still counts', () => {
    expect(
      fold(
        by('u-1', ServiceGitSourceSet(source)),
        by('u-1', ServiceGitSourceRemoved({ serviceId: 's1' })),
        by('u-3', ServiceGitSourceSet(source)),
      ),
    ).toEqual(['u-1', 'u-3']);
  });

  it('Given an event without an actor (just decided, or by Slipway itself), Then nobody is added', () => {
    expect(
      fold(ServiceGitSourceSet(source), {
        ...by('x', ServiceGitSourceSet(source)),
        metadata: systemMetadata(),
      }),
    ).toEqual([]);
  });
});
