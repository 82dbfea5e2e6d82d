import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import SuperJSON from 'superjson';
import { badRequest } from '../common/app-error.js';
import { shortJsonText } from '../common/plain-json.js';
import { toFieldIssues } from './validation-issues.js';
import { assertWellFormedText } from './well-formed-text.js';

const ENVELOPE_KEYS = new Set(['json', 'meta']);
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
export const MAX_QUERY_INPUT_LENGTH = 8192;

/** The `input` query parameter of a GET procedure call: url-decoded JSON or absent. */
export function parseQueryInput(raw: unknown): unknown {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw badRequest('Pass the input query parameter exactly once');
  if (raw.length > MAX_QUERY_INPUT_LENGTH) {
    throw badRequest(
      `The input query parameter is longer than ${MAX_QUERY_INPUT_LENGTH} characters`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest('The input query parameter is not valid JSON');
  }
  return unwrapEnvelope(parsed);
}

/** The parsed JSON body of a POST procedure call (undefined for an empty body). */
export function parseBodyInput(body: unknown): unknown {
  if (body === undefined) return undefined;
  return unwrapEnvelope(body);
}

/**
 * `{"json": <input>, "meta"?: <superjson meta>}`. A superjson client adds `meta` for values
 * JSON cannot carry (undefined, Date, bigint); honouring it gives the handler those values.
 */
function unwrapEnvelope(envelope: unknown): unknown {
  if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) {
    throw badRequest('Input must be an object of the form {"json": ...}');
  }
  const keys = Object.keys(envelope);
  const extra = keys.filter((k) => !ENVELOPE_KEYS.has(k));
  if (extra.length > 0) {
    throw badRequest('Input must be an object of the form {"json": ...}', [
      ...extra.map((k) => ({ path: k, message: `${k} is not part of the envelope` })),
    ]);
  }
  const { json, meta } = envelope as { json?: unknown; meta?: unknown };
  assertBoundedShape(json);
  if (meta === undefined) return json;
  assertSafeMeta(meta);
  try {
    return SuperJSON.deserialize({ json: json as never, meta: meta as never });
  } catch {
    throw badRequest('The meta field of the input is not valid superjson metadata');
  }
}

export const MAX_INPUT_DEPTH = 32;
const MAX_INPUT_NODES = 100_000;

/**
 * Refuses inputs nested deeper than any procedure needs before anything recurses into them
 * (class-transformer does, and overflows the stack on a deep body: a 500, not a 400).
 */
function assertBoundedShape(value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (++nodes > MAX_INPUT_NODES) throw badRequest('Input has too many values');
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) {
      throw badRequest(`Input is nested deeper than ${MAX_INPUT_DEPTH} levels`);
    }
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
}

function assertSafeMeta(meta: unknown): void {
  const stack: unknown[] = [meta];
  let visited = 0;
  while (stack.length > 0) {
    const value = stack.pop();
    if (++visited > 10_000) throw badRequest('The meta field of the input is too complex');
    if (typeof value === 'string') {
      if (value.split('.').some((part) => FORBIDDEN_KEYS.has(part))) {
        throw badRequest('The meta field of the input names a forbidden path');
      }
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (FORBIDDEN_KEYS.has(key)) throw badRequest('The meta field names a forbidden key');
        stack.push(child);
      }
    }
  }
}

/**
 * Checks the input against the procedure's class: unknown fields, wrong types and values
 * out of bounds are one BAD_REQUEST listing every field problem. First, for every input of
 * every surface (procedure inputs from a body or `?input=`, route bodies, parameters and query
 * strings): a shape bounded in depth and size (sign-in routes, REST bodies and MCP arguments
 * come without an envelope), and text that is well-formed Unicode, before any transform or
 * validator sees it.
 */
export async function validateInput(inputClass: Type<object> | undefined, value: unknown) {
  assertBoundedShape(value);
  assertWellFormedText(value);
  if (!inputClass) {
    const empty =
      value === undefined ||
      value === null ||
      (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
    if (!empty) throw badRequest('This procedure takes no input');
    return undefined;
  }
  const plain = value === undefined || value === null ? {} : value;
  if (typeof plain !== 'object' || Array.isArray(plain)) {
    throw badRequest('Input must be a JSON object');
  }
  const instance = plainToInstance(inputClass, plain);
  const text = shortJsonText(plain, MAX_REMEMBERED_INPUT);
  if (text !== null && validInputs.get(inputClass)?.has(text)) return instance;
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) throw badRequest('Input is invalid', toFieldIssues(errors));
  if (text !== null) remember(inputClass, text);
  return instance;
}

/**
 * Inputs each class found valid, as JSON text. The transforms and validators of an input class
 * are functions of the values alone, so the same text makes the same instance and earns the
 * same verdict: a repeated input (a page polled, a list filtered the same way) is not checked
 * again. Only plain JSON is remembered (a Date and its text must not share a verdict), only
 * short inputs, and at most a few hundred per class.
 */
const validInputs = new WeakMap<Type<object>, Set<string>>();
const MAX_REMEMBERED_INPUT = 1024;
const MAX_REMEMBERED_PER_CLASS = 256;

function remember(inputClass: Type<object>, text: string): void {
  let texts = validInputs.get(inputClass);
  if (!texts) validInputs.set(inputClass, (texts = new Set()));
  if (texts.size >= MAX_REMEMBERED_PER_CLASS) texts.clear();
  texts.add(text);
}
