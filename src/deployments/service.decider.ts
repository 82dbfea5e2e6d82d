import { conflict, notFound } from '../common/app-error.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import type { Decider, EventLike } from '../storage/decider.js';
import {
  ServiceRegistered,
  ServiceUpdated,
  type RecordedEnvVar,
} from '../events/deployments.events.js';
import { ServiceArchived } from '../events/lifecycle.events.js';
import { patchEnv, type EnvPatch } from './env-patch.js';

export interface ServiceState {
  serviceId: string | null;
  archived?: boolean;
  /** The variables as this stream recorded them: what an env patch applies to. */
  env?: RecordedEnvVar[];
}

export type ServiceUpdate =
  | { kind: 'update'; event: Parameters<typeof ServiceUpdated>[0]; envPatch?: EnvPatch }
  | { kind: 'archive'; event: Parameters<typeof ServiceArchived>[0] };
export type ServiceCommand =
  { kind: 'register'; event: Parameters<typeof ServiceRegistered>[0] } | ServiceUpdate;

export const serviceTakenMessage = (name: string, environment: string) =>
  `A service ${name} already exists in ${environment}`;

/**
 * An update or archiving of a known service (shared with the legacy fold): an empty change is no
 * event, archiving twice is one event, an archived service takes no change.
 */
export function decideServiceUpdate(
  command: ServiceUpdate,
  known: boolean,
  archived = false,
  env: RecordedEnvVar[] = [],
): PendingEvent[] {
  if (!known) throw notFound('No such service');
  if (command.kind === 'archive') return archived ? [] : [ServiceArchived(command.event)];
  if (archived) throw conflict('The service is archived', { serviceId: command.event.serviceId });
  const changes = command.envPatch
    ? { ...command.event.changes, env: patchEnv(env, command.envPatch) }
    : command.event.changes;
  return Object.keys(changes).length ? [ServiceUpdated({ ...command.event, changes })] : [];
}

/** The variables a registration or update recorded, else those known before. */
export function recordedEnv(event: EventLike, before: RecordedEnvVar[] = []): RecordedEnvVar[] {
  if (event.type === ServiceRegistered.type) return ServiceRegistered.dataOf(event).env ?? [];
  if (event.type === ServiceUpdated.type) return ServiceUpdated.dataOf(event).changes.env ?? before;
  return before;
}

/**
 * One service on the stream of its name and environment (`service-<sha256(env/name)>`):
 * registering claims the stream, so the pair stays unique without one stream that every
 * registration contends on.
 */
export const serviceDecider: Decider<ServiceState, ServiceCommand> = {
  initialState: () => ({ serviceId: null }),
  evolve: (state, event) => {
    if (event.type === ServiceRegistered.type && !state.serviceId)
      return { serviceId: ServiceRegistered.dataOf(event).serviceId, env: recordedEnv(event) };
    if (event.type === ServiceArchived.type) return { ...state, archived: true };
    if (event.type === ServiceUpdated.type) return { ...state, env: recordedEnv(event, state.env) };
    return state;
  },
  decide(command, state) {
    if (command.kind !== 'register') {
      return decideServiceUpdate(
        command,
        state.serviceId === command.event.serviceId,
        state.archived,
        state.env,
      );
    }
    if (state.serviceId) {
      throw conflict(serviceTakenMessage(command.event.name, command.event.environment));
    }
    return [ServiceRegistered(command.event)];
  },
};
