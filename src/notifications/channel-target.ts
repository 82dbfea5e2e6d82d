import { badRequest } from '../common/app-error.js';
import type { ChannelKind } from '../events/notifications.events.js';

const EMAIL = /^[^\s@<>()",;:\\]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$/;

/**
 * The target of a channel, checked for its kind: an http(s) URL without credentials for
 * webhook and Slack channels (its address is checked again, against the notification address
 * policy, at every delivery), an email address for email channels. Answers what reads show.
 */
export function checkTarget(kind: ChannelKind, target: string): { hint: string } {
  if (kind === 'email') {
    if (!EMAIL.test(target)) {
      throw badRequest('email must be an email address', [
        { path: 'target', message: 'e.g. ops@example.com' },
      ]);
    }
    const [local, domain] = target.split('@');
    return { hint: `${local.slice(0, 1)}***@${domain}` };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw badRequest('target must be an http(s) URL', [{ path: 'target', message: 'not a URL' }]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest('target must be an http(s) URL', [
      { path: 'target', message: `${url.protocol} is not http or https` },
    ]);
  }
  if (url.username || url.password) {
    throw badRequest('target must not carry credentials', [
      { path: 'target', message: 'no user:password@ in the URL' },
    ]);
  }
  return { hint: `${url.protocol}//${url.host}/…` };
}
