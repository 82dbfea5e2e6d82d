import { describe, expect, it } from '@jest/globals';
import { validateCompose } from '../compose.js';
import { COMPOSE_CORPUS, REFUSED_CORPUS } from './testing/compose-corpus.js';

describe('the compose corpus', () => {
  it.each(COMPOSE_CORPUS.map((c) => [c.name, c] as const))('accepts %s', (_, file) => {
    const result = validateCompose(file.compose, new Map(Object.entries(file.variables)));
    expect(result.ok ? [] : result.issues).toEqual([]);
  });

  it.each(REFUSED_CORPUS.map((c) => [c.name, c] as const))('refuses %s', (_, file) => {
    const result = validateCompose(file.compose, new Map());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => i.message).join('; ')).toContain(file.says);
  });
});
