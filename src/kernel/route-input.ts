import { validateInput } from './input-validation.js';

/**
 * A route's path parameters or query checked against its class (the `params`/`query` of its
 * `@RouteAccess`): unknown fields, wrong types and values out of bounds are one BAD_REQUEST
 * listing every problem, as for procedure inputs.
 */
export async function routeInput<T extends object>(inputClass: new () => T, value: unknown) {
  return (await validateInput(inputClass, value)) as T;
}
