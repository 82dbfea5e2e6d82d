import { AppError, conflict } from '../../common/app-error.js';
import type { Decider, EventLike } from '../../storage/decider.js';
import {
  MfaDisabled,
  MfaEnrolled,
  MfaEnrollmentStarted,
  RecoveryCodesRotated,
  RecoveryCodeUsed,
  TotpCodeAccepted,
} from '../../events/mfa.events.js';

export interface MfaState {
  status: 'none' | 'pending' | 'enrolled';
  pendingSecret: string | null;
  secret: string | null;
  unusedCodes: string[];
  /** Highest TOTP time step ever accepted: a code for this step or an earlier one is a replay. */
  lastStep: number;
}

export type MfaCommand =
  | { kind: 'start'; userId: string; secretCiphertext: string }
  | {
      kind: 'confirm';
      userId: string;
      secretCiphertext: string;
      timeStep: number;
      recoveryCodeDigests: string[];
    }
  | { kind: 'acceptTotp'; userId: string; timeStep: number; purpose: 'login' }
  | { kind: 'useRecoveryCode'; userId: string; codeDigest: string }
  | { kind: 'rotate'; userId: string; timeStep: number; recoveryCodeDigests: string[] }
  | { kind: 'disable'; userId: string; timeStep: number };

/** A wrong, replayed or spent code: one answer for all, so none of them is distinguishable. */
export function invalidCode(): AppError {
  return new AppError('BAD_REQUEST', 'The code is not valid', {
    issues: [{ path: 'code', message: 'not a valid, unused code' }],
    reason: 'INVALID_CODE',
  });
}

function requireEnrolled(state: MfaState): void {
  if (state.status !== 'enrolled') throw conflict('Two-factor authentication is not enrolled');
}

function fresh(state: MfaState, timeStep: number): void {
  if (timeStep <= state.lastStep) throw invalidCode();
}

/** An enrolled user's fresh code, accepted for `purpose`: the first event of what it allows. */
function codeAccepted(
  state: MfaState,
  userId: string,
  timeStep: number,
  purpose: Parameters<typeof TotpCodeAccepted>[0]['purpose'],
) {
  requireEnrolled(state);
  fresh(state, timeStep);
  return TotpCodeAccepted({ userId, timeStep, purpose });
}

/** TOTP enrolment, use and recovery codes of one user; replay and reuse refused atomically. */
export const mfaDecider: Decider<MfaState, MfaCommand> = {
  initialState: () => ({
    status: 'none',
    pendingSecret: null,
    secret: null,
    unusedCodes: [],
    lastStep: -1,
  }),

  evolve(state: MfaState, event: EventLike): MfaState {
    switch (event.type) {
      case MfaEnrollmentStarted.type:
        return {
          ...state,
          pendingSecret: MfaEnrollmentStarted.dataOf(event).secretCiphertext,
          status: state.status === 'enrolled' ? 'enrolled' : 'pending',
        };
      case MfaEnrolled.type:
        return {
          ...state,
          status: 'enrolled',
          secret: state.pendingSecret,
          pendingSecret: null,
          unusedCodes: MfaEnrolled.dataOf(event).recoveryCodeDigests,
        };
      case TotpCodeAccepted.type:
        return {
          ...state,
          lastStep: Math.max(state.lastStep, TotpCodeAccepted.dataOf(event).timeStep),
        };
      case RecoveryCodeUsed.type: {
        const { codeDigest } = RecoveryCodeUsed.dataOf(event);
        return { ...state, unusedCodes: state.unusedCodes.filter((c) => c !== codeDigest) };
      }
      case RecoveryCodesRotated.type:
        return { ...state, unusedCodes: RecoveryCodesRotated.dataOf(event).recoveryCodeDigests };
      case MfaDisabled.type:
        return { ...state, status: 'none', secret: null, pendingSecret: null, unusedCodes: [] };
      default:
        return state;
    }
  },

  decide(command: MfaCommand, state: MfaState) {
    const { userId } = command;
    switch (command.kind) {
      case 'start':
        if (state.status === 'enrolled')
          throw conflict('Already enrolled: disable two-factor authentication first');
        return [MfaEnrollmentStarted({ userId, secretCiphertext: command.secretCiphertext })];
      case 'confirm':
        if (state.status !== 'pending' || state.pendingSecret !== command.secretCiphertext) {
          throw conflict('No matching enrolment in progress: start it again');
        }
        fresh(state, command.timeStep);
        return [
          TotpCodeAccepted({ userId, timeStep: command.timeStep, purpose: 'enrolment' }),
          MfaEnrolled({ userId, recoveryCodeDigests: command.recoveryCodeDigests }),
        ];
      case 'acceptTotp':
        return [codeAccepted(state, userId, command.timeStep, command.purpose)];
      case 'useRecoveryCode':
        requireEnrolled(state);
        if (!state.unusedCodes.includes(command.codeDigest)) throw invalidCode();
        return [RecoveryCodeUsed({ userId, codeDigest: command.codeDigest })];
      case 'rotate':
        return [
          codeAccepted(state, userId, command.timeStep, 'rotate'),
          RecoveryCodesRotated({ userId, recoveryCodeDigests: command.recoveryCodeDigests }),
        ];
      case 'disable':
        return [codeAccepted(state, userId, command.timeStep, 'disable'), MfaDisabled({ userId })];
    }
  },
};
