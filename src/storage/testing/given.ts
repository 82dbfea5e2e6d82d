import { expect } from '@jest/globals';
import { AppError } from '../../common/app-error.js';
import type { ErrorCode } from '../../common/error-codes.js';
import type { PendingEvent } from '../../eventstore/define-event.js';
import { decideFrom, type Decider, type EventLike } from '../decider.js';

/**
 * Given/When/Then for deciders:
 * `given(decider, ...history).when(command).then(...events)` (or `.thenNothing()`,
 * `.thenRefused(code, message?)`). The history folds from the initial state, as the runner does.
 */
export function given<S, C>(decider: Decider<S, C>, ...history: EventLike[]) {
  return {
    when(command: C) {
      const decide = () => decideFrom(decider, history, command);
      return {
        then(...expected: PendingEvent[]): void {
          expect(decide()).toEqual(expected);
        },
        thenNothing(): void {
          expect(decide()).toEqual([]);
        },
        thenRefused(code: ErrorCode, message?: string | RegExp): void {
          let refusal: unknown = null;
          try {
            decide();
          } catch (error) {
            refusal = error;
          }
          expect(refusal).toBeInstanceOf(AppError);
          expect((refusal as AppError).code).toBe(code);
          if (message !== undefined) expect((refusal as AppError).message).toMatch(message);
        },
      };
    },
  };
}
