/** The success envelope of a procedure call. */
export interface RpcSuccess<T> {
  result: { data: { json: T; meta?: unknown } };
}

export async function rpcData<T>(res: Response): Promise<T> {
  return ((await res.json()) as RpcSuccess<T>).result.data.json;
}
