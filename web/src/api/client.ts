import { createTRPCUntypedClient, httpLink, TRPCClientError } from '@trpc/client';
import SuperJSON from 'superjson';
import type { AnswerOf } from './answers';
import { PROCEDURES, type ProcedureInputs, type ProcedureName } from './contract';
import { errorFromAnswer, networkError, type ApiError } from './errors';

/** The stock tRPC client (one request per call, superjson), same origin, session cookie. */
const trpc = createTRPCUntypedClient({
  links: [httpLink({ url: '/trpc', transformer: SuperJSON })],
});

type MethodOf<N extends ProcedureName> = (typeof PROCEDURES)[N]['method'];
export type QueryName = {
  [N in ProcedureName]: MethodOf<N> extends 'GET' ? N : never;
}[ProcedureName];
export type MutationName = Exclude<ProcedureName, QueryName>;

/** No argument for a procedure without input; optional when every field is. */
export type InputArgs<N extends ProcedureName> = ProcedureInputs[N] extends undefined
  ? []
  : Record<never, never> extends ProcedureInputs[N]
    ? [input?: ProcedureInputs[N]]
    : [input: ProcedureInputs[N]];

/** A read or planning procedure (GET), by name, with its declared input and answer. */
export async function query<N extends QueryName>(
  name: N,
  ...input: InputArgs<N>
): Promise<AnswerOf<N>> {
  try {
    return (await trpc.query(name, input[0])) as AnswerOf<N>;
  } catch (error) {
    throw asApiError(error);
  }
}

/** A command procedure (POST), by name, with its declared input and answer. */
export async function mutate<N extends MutationName>(
  name: N,
  ...input: InputArgs<N>
): Promise<AnswerOf<N>> {
  try {
    return (await trpc.mutation(name, input[0] ?? {})) as AnswerOf<N>;
  } catch (error) {
    throw asApiError(error);
  }
}

/** The server's error shape is read from the raw answer, which tRPC keeps in `meta`. */
function asApiError(error: unknown): ApiError {
  if (error instanceof TRPCClientError) {
    const meta = error.meta as { response?: Response; responseJSON?: unknown } | undefined;
    if (meta?.response) {
      const { status, headers } = meta.response;
      return errorFromAnswer(status, meta.responseJSON, headers.get('retry-after'));
    }
    return networkError(error.cause ?? error);
  }
  return networkError(error);
}
