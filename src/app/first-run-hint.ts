import type { INestApplication } from '@nestjs/common';
import { FirstRun } from '../identity/first-run.js';

/**
 * What to do next, for the log after start: create the owner on an empty service, or log in.
 * Null when the read models are still catching up (a large store rebuilding): no guess.
 */
export async function firstRunHint(app: INestApplication, url: string): Promise<string | null> {
  let ownerExists: boolean;
  try {
    ownerExists = await app.get(FirstRun).ownerExists();
  } catch {
    return null;
  }
  return ownerExists
    ? `Log in: ${url}/login, or slipway login --url ${url} --email you@example.com`
    : `No owner yet. Create one: ${url}/ in a browser, or slipway init --url ${url}   (the CLI: node bin/slipway.js)`;
}
