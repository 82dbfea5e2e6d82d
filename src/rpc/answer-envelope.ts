import SuperJSON from 'superjson';
import { isPlainJson } from '../common/plain-json.js';

/**
 * A procedure's answer in tRPC's superjson form, `{json, meta?}`: the same as
 * `SuperJSON.serialize`, which is only called when the answer holds a value JSON cannot carry
 * (a Date, undefined, a Map, a bigint...). Most answers are read-model documents, plain JSON.
 */
export function answerEnvelope(result: unknown): { json: unknown; meta?: unknown } {
  const value = result ?? null;
  return isPlainJson(value) ? { json: value } : SuperJSON.serialize(value);
}

/** The response body of answers that cannot change (frozen ones: kept, shared answers). */
const written = new WeakMap<object, string>();

/**
 * `{"result":{"data":<envelope>}}` as text. An answer frozen whole (see KeptAnswers) is
 * written once and its text reused by every call that shares it.
 */
export function answerBody(result: unknown): string {
  const frozen = result !== null && typeof result === 'object' && Object.isFrozen(result);
  if (frozen) {
    const text = written.get(result);
    if (text !== undefined) return text;
  }
  const text = JSON.stringify({ result: { data: answerEnvelope(result) } });
  if (frozen) written.set(result, text);
  return text;
}
