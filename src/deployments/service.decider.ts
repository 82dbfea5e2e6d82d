import { conflict, notFound } from '../common/app-error.js';
import type { PendingEvent } from '../eventstore/define-event.js';
import type { Decider, EventLike } from '../storage/decider.js';
import {
  ServiceRegistered,
  ServiceUpdated,
  type RecordedEnvVar,
} from '../events/deployments.events.js';
import { ServiceArchived } from '../events/lifecycle.events.js';
import {
  assertMayChangeGuarded,
  type GuardedSettings,
  type RuleSubject,
} from './approval-rules.js';
import { patchEnv, type EnvPatch } from './env-patch.js';
import { domainsOf } from './routes/route-rules.js';

export interface ServiceState {
  serviceId: string | null;
  archived?: boolean;
  /** The variables as this stream recorded them: what an env patch applies to. */
  env?: RecordedEnvVar[];
  /** The server it is on, as this stream recorded it. */
  serverId?: string;
  /** The domains its routes name, as this stream recorded them. */
  domains?: string[];
  /** Its approval rule and server commands, as this stream recorded them. */
  guarded?: GuardedSettings;
}

export type ServiceUpdate =
  | {
      kind: 'update';
      event: Parameters<typeof ServiceUpdated>[0];
      envPatch?: EnvPatch;
      /** Who asks: one the rule holds back may not change what guards the service. */
      by: RuleSubject;
    }
  | { kind: 'archive'; event: Parameters<typeof ServiceArchived>[0] };
export type ServiceCommand =
  { kind: 'register'; event: Parameters<typeof ServiceRegistered>[0] } | ServiceUpdate;

/** Only for typing: every registration records its rule and commands. */
const UNGUARDED: GuardedSettings = {
  approvalRule: 'none',
  backupCommand: null,
  restoreCommand: null,
};

export const serviceTakenMessage = (name: string, environment: string) =>
  `A service ${name} already exists in ${environment}`;

/**
 * An update or archiving of a known service (shared with the legacy fold): an empty change is no
 * event, archiving twice is one event, an archived service takes no change. What the stream
 * recorded decides the rest: env patches apply to its variables, a move names the server left,
 * and new routes name the domains they stop routing (which the caller releases), so two
 * concurrent route changes never leave a domain claimed that no route names; and its rule, as
 * recorded, says whether the caller may change the rule or its commands.
 */
export function decideServiceUpdate(
  command: ServiceUpdate,
  known: Omit<ServiceState, 'serviceId'> | undefined,
): PendingEvent[] {
  if (!known) throw notFound('No such service');
  const { archived = false, env = [], serverId, domains, guarded = UNGUARDED } = known;
  if (command.kind === 'archive') return archived ? [] : [ServiceArchived(command.event)];
  if (archived) throw conflict('The service is archived', { serviceId: command.event.serviceId });
  assertMayChangeGuarded(guarded, command.event.changes, command.by);
  const changes = command.envPatch
    ? { ...command.event.changes, env: patchEnv(env, command.envPatch) }
    : command.event.changes;
  if (!Object.keys(changes).length) return [];
  const moved = serverId && changes.serverId && changes.serverId !== serverId;
  const kept = changes.routes && domainsOf(changes.routes);
  const released = kept && domains?.filter((d) => !kept.includes(d));
  return [
    ServiceUpdated({
      ...command.event,
      changes,
      ...(moved ? { movedFrom: serverId } : {}),
      ...(released?.length ? { releasedDomains: released } : {}),
    }),
  ];
}

/** The rule and commands a registration or update recorded, else those known before. */
export function recordedGuard(
  event: EventLike,
  before: GuardedSettings = UNGUARDED,
): GuardedSettings {
  if (event.type === ServiceRegistered.type) {
    const d = ServiceRegistered.dataOf(event);
    return {
      approvalRule: d.approvalRule,
      backupCommand: d.backupCommand ?? null,
      restoreCommand: d.restoreCommand ?? null,
    };
  }
  if (event.type !== ServiceUpdated.type) return before;
  const { approvalRule, backupCommand, restoreCommand } = ServiceUpdated.dataOf(event).changes;
  return {
    approvalRule: approvalRule ?? before.approvalRule,
    backupCommand: backupCommand === undefined ? before.backupCommand : backupCommand,
    restoreCommand: restoreCommand === undefined ? before.restoreCommand : restoreCommand,
  };
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
    if (event.type === ServiceRegistered.type && !state.serviceId) {
      const { serviceId, serverId, routes } = ServiceRegistered.dataOf(event);
      return {
        serviceId,
        serverId,
        env: recordedEnv(event),
        domains: domainsOf(routes),
        guarded: recordedGuard(event),
      };
    }
    if (event.type === ServiceArchived.type) return { ...state, archived: true };
    if (event.type === ServiceUpdated.type) {
      const { changes } = ServiceUpdated.dataOf(event);
      const serverId = changes.serverId ?? state.serverId;
      const domains = changes.routes ? domainsOf(changes.routes) : state.domains;
      return {
        ...state,
        serverId,
        domains,
        env: recordedEnv(event, state.env),
        guarded: recordedGuard(event, state.guarded),
      };
    }
    return state;
  },
  decide(command, state) {
    if (command.kind !== 'register') {
      return decideServiceUpdate(
        command,
        state.serviceId === command.event.serviceId ? state : undefined,
      );
    }
    if (state.serviceId) {
      throw conflict(serviceTakenMessage(command.event.name, command.event.environment));
    }
    return [ServiceRegistered(command.event)];
  },
};
