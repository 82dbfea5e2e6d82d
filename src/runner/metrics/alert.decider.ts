import {
  AlertEscalated,
  AlertRaised,
  AlertResolved,
  type AlertFacts,
  type AlertSeverity,
} from '../../events/alerts.events.js';
import type { Decider, EventLike } from '../../storage/decider.js';

/** The incident open on a condition's stream, if any, and how many there were. */
export interface AlertState {
  open: (AlertFacts & { severity: AlertSeverity }) | null;
  incidents: number;
}

/**
 * What the latest check found: the condition holds at a severity, or it does not (`ok`).
 * `facts` describe it; their `alertId` is chosen by the decider.
 */
export interface AlertCheck {
  level: AlertSeverity | 'ok';
  /** The condition's name, from which each incident's id is made. */
  condition: string;
  facts: Omit<AlertFacts, 'alertId'>;
}

const RANK = { ok: 0, warning: 1, critical: 2 } as const;

/**
 * Stream `alert-<condition>`: one incident at a time. A condition that starts to hold raises an
 * alert once; one that gets worse escalates it once; staying as it is records nothing; one that
 * stops holding resolves it once. Easing from critical to warning records nothing: the incident
 * is not over.
 */
export const alertDecider: Decider<AlertState, AlertCheck> = {
  initialState: () => ({ open: null, incidents: 0 }),

  evolve(state, event: EventLike) {
    if (event.type === AlertRaised.type) {
      return { open: AlertRaised.dataOf(event), incidents: state.incidents + 1 };
    }
    if (event.type === AlertEscalated.type) return { ...state, open: AlertEscalated.dataOf(event) };
    if (event.type === AlertResolved.type) return { ...state, open: null };
    return state;
  },

  decide({ level, condition, facts }, { open, incidents }) {
    if (!open) {
      if (level === 'ok') return [];
      return [AlertRaised({ ...facts, alertId: `${condition}-${incidents + 1}`, severity: level })];
    }
    if (level === 'ok') return [AlertResolved({ ...facts, alertId: open.alertId })];
    if (RANK[level] > RANK[open.severity]) {
      return [AlertEscalated({ ...facts, alertId: open.alertId, severity: level })];
    }
    return [];
  },
};
