import { describe, expect, it } from '@jest/globals';
import type { GitRefRule } from '../../events/git-sources.events.js';
import { gitRefAction } from './git-ref-rules.js';

const rules: GitRefRule[] = [
  { kind: 'branch', pattern: 'main', action: 'deploy' },
  { kind: 'branch', pattern: 'release/*', action: 'approval' },
  { kind: 'tag', pattern: 'v*-rc*', action: 'ignore' },
  { kind: 'tag', pattern: 'v*', action: 'approval' },
];

describe('which pushes deploy', () => {
  it('lets the first matching rule of the ref’s kind decide', () => {
    expect(gitRefAction(rules, 'refs/heads/main')?.rule.action).toBe('deploy');
    expect(gitRefAction(rules, 'refs/heads/release/2.0')).toEqual({
      rule: rules[1],
      name: 'release/2.0',
    });
    expect(gitRefAction(rules, 'refs/tags/v2.0.0-rc1')?.rule.action).toBe('ignore');
    expect(gitRefAction(rules, 'refs/tags/v2.0.0')?.rule.action).toBe('approval');
  });

  it('deploys nothing no rule names, and reads patterns literally but for *', () => {
    expect(gitRefAction(rules, 'refs/heads/feature/x')).toBeNull();
    expect(gitRefAction(rules, 'refs/heads/mainline')).toBeNull();
    expect(gitRefAction(rules, 'refs/tags/main')).toBeNull();
    expect(
      gitRefAction([{ kind: 'branch', pattern: 'a.b', action: 'deploy' }], 'refs/heads/axb'),
    ).toBeNull();
    expect(gitRefAction(rules, 'refs/pull/1/head')).toBeNull();
    expect(gitRefAction([], 'refs/heads/main')).toBeNull();
  });
});
