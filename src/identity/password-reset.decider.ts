import { badRequest, conflict } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import { PasswordResetCompleted, PasswordResetRequested } from '../events/identity.events.js';

export interface ResetState {
  userId: string | null;
  expiresAt: number;
  completed: boolean;
}

export type ResetCommand =
  | { kind: 'request'; userId: string; tokenDigest: string; expiresAt: string }
  | { kind: 'complete'; tokenDigest: string; now: number };

export function invalidResetToken() {
  return badRequest('The reset link is invalid, used or expired', [
    { path: 'token', message: 'request a new reset link' },
  ]);
}

/** One reset link: requested once, completed at most once, never after it expires. */
export const passwordResetDecider: Decider<ResetState, ResetCommand> = {
  initialState: () => ({ userId: null, expiresAt: 0, completed: false }),
  evolve(state: ResetState, event: EventLike): ResetState {
    if (event.type === PasswordResetRequested.type) {
      const { userId, expiresAt } = PasswordResetRequested.dataOf(event);
      return { ...state, userId, expiresAt: Date.parse(expiresAt) };
    }
    if (event.type === PasswordResetCompleted.type) return { ...state, completed: true };
    return state;
  },
  decide(command: ResetCommand, state: ResetState) {
    if (command.kind === 'request') {
      if (state.userId) throw conflict('This reset link already exists');
      return [
        PasswordResetRequested({
          userId: command.userId,
          tokenDigest: command.tokenDigest,
          expiresAt: command.expiresAt,
        }),
      ];
    }
    if (!state.userId || state.completed || state.expiresAt <= command.now)
      throw invalidResetToken();
    return [PasswordResetCompleted({ userId: state.userId, tokenDigest: command.tokenDigest })];
  },
};
