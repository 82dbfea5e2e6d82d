import { describe, expect, it } from '@jest/globals';
import { parseGitRepository } from './git-repository.js';

describe('repository addresses', () => {
  it('reads the scp-like, ssh:// and https:// forms', () => {
    expect(parseGitRepository('git@github.com:acme/shop.git')).toEqual({
      transport: 'ssh',
      host: 'github.com',
      port: 22,
      user: 'git',
      path: 'acme/shop.git',
    });
    expect(parseGitRepository('ssh://deploy@git.example.com:2222/srv/repos/shop.git')).toEqual({
      transport: 'ssh',
      host: 'git.example.com',
      port: 2222,
      user: 'deploy',
      path: 'srv/repos/shop.git',
    });
    expect(parseGitRepository('https://gitlab.example.com/team/sub/shop.git')).toEqual({
      transport: 'https',
      host: 'gitlab.example.com',
      port: 443,
      user: null,
      path: 'team/sub/shop.git',
    });
    expect(parseGitRepository('https://GitLab.example.com:443/shop.git')).toMatchObject({
      host: 'gitlab.example.com',
      port: 443,
    });
    expect(parseGitRepository('ssh://10.0.0.5/shop')).toMatchObject({
      host: '10.0.0.5',
      user: 'git',
    });
  });

  it.each([
    ['http://git.example.com/a.git', /http:\/\/ is refused/],
    ['git://git.example.com/a.git', /git:\/\/ is refused/],
    ['file:///srv/a.git', /file:\/\/ is refused/],
    ['ext::sh -c touch% /tmp/pwned', /spaces/],
    ['https://user:tok@git.example.com/a.git', /no credentials/],
    ['https://tok@git.example.com/a.git', /no credentials/],
    ['https://git.example.com/a.git?x=1', /no query/],
    ['git@-oProxyCommand=x:a.git', /not a host name/],
    ['ssh://-oProxyCommand=x/a.git', /not a host name|not a repository address/],
    ['git@git.example.com:-upload-pack=x', /path/],
    ['git@git.example.com:a/../../etc', /path/],
    ['https://git.example.com/a/%2e%2e/b', /path/],
    ['ssh://-x@git.example.com/a.git', /SSH user/],
    ['git@git.example.com:a\nb', /spaces/],
    [`https://git.example.com/${'a'.repeat(300)}`, /at most 300/],
    ['https://github.com\\@127.0.0.1:9/org/repo', /write the host plainly/],
    ['https://github.com\\.evil.example/org/repo', /write the host plainly/],
  ])('refuses %j', (text, message) => {
    const parsed = parseGitRepository(text);
    expect(parsed).toHaveProperty('error');
    expect((parsed as { error: string }).error).toMatch(message);
  });
});
