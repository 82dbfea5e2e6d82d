import { isDeepStrictEqual } from 'node:util';
import { conflict, notFound } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import { DrainConfigured, DrainRemoved, type DrainSettings } from '../events/drains.events.js';

export interface DrainState {
  settings: DrainSettings | null;
}

/**
 * Sealed headers with their names (new, or the configured ones sent again), `keep` when they
 * were left out, or none.
 */
export type DrainHeaders = { sealed: string; names: string[] } | 'keep' | 'none';

export type DrainCommand =
  | {
      kind: 'configure';
      settings: Omit<DrainSettings, 'sealedHeaders' | 'headerNames' | 'fromPosition'>;
      headers: DrainHeaders;
      /** Where a new drain starts; a drain that exists keeps its own. */
      fromPosition: number;
    }
  | { kind: 'remove'; drainId: string };

/**
 * Stream `drain-<id>`: one drain, configured whole each time. Configuring what is configured
 * records nothing; a drain keeps the position it started from for as long as it exists, so
 * changing its endpoint never replays nor skips what it has not shipped. Headers left out are
 * kept only while the endpoint stays: they go out as they are (an API key), so sending them to
 * another endpoint takes someone who knows them. Removing forgets it.
 */
export const drainDecider: Decider<DrainState, DrainCommand> = {
  initialState: () => ({ settings: null }),

  evolve(state, event: EventLike) {
    if (event.type === DrainConfigured.type) return { settings: DrainConfigured.dataOf(event) };
    if (event.type === DrainRemoved.type) return { settings: null };
    return state;
  },

  decide(command, state) {
    if (command.kind === 'remove') {
      if (!state.settings) throw notFound('No such drain');
      return [DrainRemoved({ drainId: command.drainId })];
    }
    const current = state.settings;
    const otlp = command.settings.kind === 'otlp';
    if (!otlp && typeof command.headers === 'object') {
      throw conflict('Only OTLP drains send headers', { field: 'headers' });
    }
    const moved = current !== null && current.endpoint !== command.settings.endpoint;
    if (otlp && command.headers === 'keep' && moved && current.sealedHeaders) {
      throw conflict(
        'The endpoint changes: give the headers again (an empty list sends none); configured headers go only to the endpoint they were given for',
        { field: 'headers' },
      );
    }
    const headers =
      otlp && command.headers === 'keep'
        ? { sealedHeaders: current?.sealedHeaders ?? null, headerNames: current?.headerNames ?? [] }
        : typeof command.headers === 'object'
          ? { sealedHeaders: command.headers.sealed, headerNames: command.headers.names }
          : { sealedHeaders: null, headerNames: [] };
    const next: DrainSettings = {
      ...command.settings,
      ...headers,
      fromPosition: current?.fromPosition ?? command.fromPosition,
    };
    if (current && isDeepStrictEqual(current, next)) return [];
    return [DrainConfigured(next)];
  },
};
