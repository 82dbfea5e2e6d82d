import {
  SlipwayClient,
  type Answer,
  type InputArgs,
  type MutateArgs,
  type MutationName,
  type QueryName,
} from '../../../client/src/index.js';

export type { InputArgs, MutationName, QueryName } from '../../../client/src/index.js';

/** The typed client (client/), same origin: the session cookie goes with every call. */
const slipway = new SlipwayClient();

/** A read or planning procedure (GET), by name, with its declared input and answer. */
export function query<N extends QueryName>(name: N, ...input: InputArgs<N>): Promise<Answer<N>> {
  return slipway.query(name, ...input);
}

/** A command procedure (POST), by name, with its declared input and answer. */
export function mutate<N extends MutationName>(
  name: N,
  ...input: InputArgs<N>
): Promise<Answer<N>> {
  return slipway.mutate(name, ...(input as unknown as MutateArgs<N>));
}
