import { conflict, notFound } from '../common/app-error.js';
import type { Decider, EventLike } from '../storage/decider.js';
import { TokenMinted, TokenRevoked, TokenRotated } from '../events/access.events.js';

export interface TokenState {
  exists: boolean;
  revoked: boolean;
  rotated: boolean;
}

export type TokenCommand =
  | { kind: 'mint'; event: Parameters<typeof TokenMinted>[0] }
  | { kind: 'revoke'; tokenId: string }
  | { kind: 'rotate'; tokenId: string; replacedBy: string; refuseAfter: string };

/** An API token's life: minted once; revoked (idempotent); rotated once, unless revoked. */
export const tokenDecider: Decider<TokenState, TokenCommand> = {
  initialState: () => ({ exists: false, revoked: false, rotated: false }),

  evolve(state: TokenState, event: EventLike): TokenState {
    if (event.type === TokenMinted.type) return { ...state, exists: true };
    if (event.type === TokenRevoked.type) return { ...state, revoked: true };
    if (event.type === TokenRotated.type) return { ...state, rotated: true };
    return state;
  },

  decide(command: TokenCommand, state: TokenState) {
    if (command.kind === 'mint') {
      if (state.exists) throw conflict('This token already exists');
      return [TokenMinted(command.event)];
    }
    if (!state.exists) throw notFound('No such token');
    if (command.kind === 'revoke') {
      return state.revoked ? [] : [TokenRevoked({ tokenId: command.tokenId })];
    }
    if (state.revoked) throw conflict('A revoked token cannot be rotated');
    if (state.rotated) throw conflict('This token was already rotated; rotate its replacement');
    return [
      TokenRotated({
        tokenId: command.tokenId,
        replacedBy: command.replacedBy,
        refuseAfter: command.refuseAfter,
      }),
    ];
  },
};
