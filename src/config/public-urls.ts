import { ValidateBy } from 'class-validator';

/**
 * `SLIPWAY_PUBLIC_URL`: one http(s) URL, or several separated by commas. The first is where
 * links point (password reset, invites, deploy hooks); every one of them names a host the
 * server answers to (see http/allowed-hosts.ts).
 */
export interface PublicUrls {
  /** The first entry, without a trailing slash. */
  publicUrl: string;
  /** The others, the same way: names the service is also reached at, never put in links. */
  aliases: string[];
}

function entries(setting: string): string[] {
  return setting
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
}

function entryProblem(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return `"${entry}" is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `"${entry}" is not http(s)`;
  // Not echoed: it would be a password in a log.
  if (url.username || url.password) return 'an entry carries a user name or password';
  if (/\s/.test(entry)) return `"${entry}" contains white space`;
  return null;
}

/** What is wrong with the setting, one message per bad entry; empty when it can be used. */
export function publicUrlProblems(setting: string): string[] {
  const all = entries(setting);
  if (all.length === 0) return ['no URL given'];
  return all.map(entryProblem).filter((p): p is string => p !== null);
}

/** Validates SLIPWAY_PUBLIC_URL, naming each bad entry. */
export const IsPublicUrlList = () =>
  ValidateBy({
    name: 'publicUrls',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && publicUrlProblems(value).length === 0,
      defaultMessage: (args) =>
        `SLIPWAY_PUBLIC_URL must be http(s) URLs separated by commas: ${publicUrlProblems(String(args?.value)).join('; ')}`,
    },
  });

/** The setting read (it must be valid), or `http://localhost:<port>` when it is not set. */
export function parsePublicUrls(setting: string | undefined, port: number): PublicUrls {
  const [first, ...rest] = setting
    ? entries(setting).map((e) => e.replace(/\/+$/, ''))
    : [`http://localhost:${port}`];
  return { publicUrl: first, aliases: rest };
}
