import { describe, expect, it } from '@jest/globals';
import { deepFreeze } from './deep-freeze.js';

describe('deepFreeze', () => {
  it('freezes a value and everything it holds, and leaves scalars alone', () => {
    const value = deepFreeze({ items: [{ id: 'a', tags: ['x'] }], next: null });
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.items)).toBe(true);
    expect(Object.isFrozen(value.items[0])).toBe(true);
    expect(Object.isFrozen(value.items[0].tags)).toBe(true);
    expect(() => value.items.push({ id: 'b', tags: [] })).toThrow(TypeError);
    expect(deepFreeze('text')).toBe('text');
    expect(deepFreeze(null)).toBeNull();
  });
});
