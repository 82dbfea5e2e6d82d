import type { PendingEvent } from '../../eventstore/define-event.js';
import {
  ServiceGitSourceRemoved,
  ServiceGitSourceSet,
  type GitSourceData,
} from '../../events/git-sources.events.js';
import type { Decider } from '../../storage/decider.js';

export interface GitSourceState {
  source: GitSourceData | null;
}

/** A deploy key made for this command, used only when the source needs a new one. */
export type FreshDeployKey = NonNullable<GitSourceData['deployKey']>;

export type GitSourceCommand =
  | {
      kind: 'set';
      /** The source as asked, its deploy key and webhook secret left to the decision. */
      source: Omit<GitSourceData, 'deployKey' | 'webhookSecretCiphertext'>;
      freshKey: FreshDeployKey | null;
      /** A new deploy key even though the source already has one. */
      rotateKey: boolean;
      /** A webhook secret made for this command (sealed), used when the source has none. */
      freshWebhookSecret: string;
      /** A new webhook secret even though the source already has one. */
      rotateWebhookSecret: boolean;
    }
  | { kind: 'remove'; serviceId: string };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A service's git source on its stream `service-git-<serviceId>`. An SSH source keeps the deploy
 * key it has (the key the repository's host was given), and every source its webhook secret
 * (what the provider's hook was given), unless a rotation is asked for, so the source can be
 * edited without registering either again; setting what is already set, or
 * removing what is not there, records nothing (a token given again is recorded: it is sealed
 * afresh).
 */
export const gitSourceDecider: Decider<GitSourceState, GitSourceCommand> = {
  initialState: () => ({ source: null }),
  evolve(state, event) {
    if (event.type === ServiceGitSourceSet.type)
      return { source: ServiceGitSourceSet.dataOf(event) };
    if (event.type === ServiceGitSourceRemoved.type) return { source: null };
    return state;
  },
  decide(command, state): PendingEvent[] {
    if (command.kind === 'remove')
      return state.source ? [ServiceGitSourceRemoved({ serviceId: command.serviceId })] : [];
    const { source, freshKey, rotateKey, freshWebhookSecret, rotateWebhookSecret } = command;
    const kept = state.source?.deployKey ?? null;
    let deployKey: GitSourceData['deployKey'] = null;
    if (source.auth === 'deploy-key') {
      deployKey = kept && !rotateKey ? kept : freshKey;
      if (!deployKey) throw new Error('a deploy-key source needs a key');
    }
    const keptSecret = state.source?.webhookSecretCiphertext ?? null;
    const webhookSecretCiphertext =
      keptSecret && !rotateWebhookSecret ? keptSecret : freshWebhookSecret;
    const next: GitSourceData = { ...source, deployKey, webhookSecretCiphertext };
    // A token is sealed afresh at each call, so a source given a token is always recorded.
    if (state.source && same(state.source, next)) return [];
    return [ServiceGitSourceSet(next)];
  },
};
