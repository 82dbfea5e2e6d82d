import type { INestApplication } from '@nestjs/common';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port.js';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port.js';

/**
 * What to do next, for the log after start: create the owner on an empty service, or log in.
 * Null when the read models are still catching up (a large store rebuilding): no guess.
 */
export async function firstRunHint(app: INestApplication, url: string): Promise<string | null> {
  const events = app.get<EventStore>(EVENT_STORE);
  try {
    await app.get(ProjectionRunner).waitFor(await events.headPosition(), ['principals']);
  } catch {
    return null;
  }
  const users = await app
    .get<ReadStore>(READ_STORE)
    .collection('principals')
    .count({ kind: 'user' });
  return users === 0
    ? `No owner yet. Create one: slipway init --url ${url}   (the CLI: node bin/slipway.js)`
    : `Log in: slipway login --url ${url} --email you@example.com`;
}
