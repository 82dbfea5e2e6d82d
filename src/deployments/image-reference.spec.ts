import { describe, expect, it } from '@jest/globals';
import { parseImageReference, repositoryOf } from './image-reference.js';

describe('image references', () => {
  it.each([
    [
      'ghcr.io/acme/api:1.4.2',
      { registry: 'ghcr.io', repository: 'acme/api', tag: '1.4.2', digest: null },
    ],
    [
      'registry.example.com:5000/team/web:2026-11-22',
      {
        registry: 'registry.example.com:5000',
        repository: 'team/web',
        tag: '2026-11-22',
        digest: null,
      },
    ],
    [
      'nginx:1.27-alpine',
      { registry: null, repository: 'nginx', tag: '1.27-alpine', digest: null },
    ],
    ['acme/worker:v3', { registry: null, repository: 'acme/worker', tag: 'v3', digest: null }],
    [
      `ghcr.io/acme/api@sha256:${'a'.repeat(64)}`,
      {
        registry: 'ghcr.io',
        repository: 'acme/api',
        tag: null,
        digest: `sha256:${'a'.repeat(64)}`,
      },
    ],
    ['localhost/app:dev', { registry: 'localhost', repository: 'app', tag: 'dev', digest: null }],
  ])('accepts %s', (value, expected) => {
    expect(parseImageReference(value)).toEqual(expected);
  });

  it.each([
    ['nginx', 'no tag or digest'],
    ['ghcr.io/acme/api', 'no tag'],
    ['Acme/API:1', 'upper-case repository'],
    ['acme/api:', 'empty tag'],
    ['acme/api:1;rm -rf /', 'shell metacharacters'],
    [`acme/api@sha256:${'a'.repeat(63)}`, 'short digest'],
    ['acme/api:$(id)', 'command substitution'],
    ['', 'empty'],
  ])('refuses %s (%s)', (value) => {
    expect(parseImageReference(value)).toBeNull();
  });

  it('names the repository without tag or digest', () => {
    expect(repositoryOf(parseImageReference('ghcr.io/acme/api:1')!)).toBe('ghcr.io/acme/api');
  });
});
