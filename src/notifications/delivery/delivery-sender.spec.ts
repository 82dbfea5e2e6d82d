import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { NotificationChannelDoc } from '../../../projections/notification-channels.projection.js';
import { loadConfig, type AppConfig } from '../../config/app-config.js';
import { SqliteReadStore } from '../../readstore/sqlite/sqlite-read-store.js';
import type { ChannelSender } from './channel-sender.js';
import { DELIVERIES, type DeliveryDoc } from './delivery-record.js';
import type { CommitStatusSender } from './commit-status-sender.js';
import { DeliverySender } from './delivery-sender.js';

const clock = { now: () => new Date() };

function delivery(n: number): DeliveryDoc {
  return {
    id: `evt-${n}:chan-1`,
    channelId: 'chan-1',
    subject: 'deployment.succeeded',
    eventId: `evt-${n}`,
    eventType: 'DeploymentSucceeded',
    position: n,
    testId: null,
    status: 'pending',
    attempts: 0,
    lastError: null,
    lastStatusCode: null,
    nextAttemptAt: new Date(0).toISOString(),
    createdAt: new Date(0).toISOString(),
    deliveredAt: null,
    payload: { n },
  };
}

/** Records who sent what; the lease, not the channel, is under test here. */
function countingChannel(name: string, sent: string[]): ChannelSender {
  return {
    send: (_channel: unknown, deliveryId: string) => {
      sent.push(`${name}:${deliveryId}`);
      return Promise.resolve({ statusCode: 200 });
    },
  } as unknown as ChannelSender;
}

describe('notification sender with several replicas on one store', () => {
  let dir = '';
  const stores: SqliteReadStore[] = [];
  afterEach(() => {
    for (const s of stores.splice(0)) s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given two replicas and pending deliveries, when both run, then one sends each, once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'slipway-sender-'));
    const file = join(dir, 'read.sqlite');
    const defaults = loadConfig({});
    const config: AppConfig = {
      ...defaults,
      storage: { ...defaults.storage, replicas: 2 },
      notifications: { ...defaults.notifications, concurrency: 2 },
    };
    const setup = new SqliteReadStore(file);
    stores.push(setup);
    await setup.ensureCollection({ name: DELIVERIES });
    await setup.ensureCollection({ name: 'notification_channels' });
    await setup
      .collection<NotificationChannelDoc>('notification_channels')
      .put({ id: 'chan-1', enabled: true } as NotificationChannelDoc);
    for (let n = 1; n <= 12; n++) await setup.collection<DeliveryDoc>(DELIVERIES).put(delivery(n));

    const sent: string[] = [];
    const senders = ['r1', 'r2'].map((name) => {
      const store = new SqliteReadStore(file);
      stores.push(store);
      return new DeliverySender(
        store,
        store,
        config,
        clock,
        countingChannel(name, sent),
        {} as CommitStatusSender,
      );
    });
    for (const s of senders) s.onApplicationBootstrap();
    const deliveries = setup.collection<DeliveryDoc>(DELIVERIES);
    for (let i = 0; i < 200; i++) {
      const pending = await deliveries.find({ status: 'pending' }, { limit: 20 });
      if (pending.items.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const s of senders) await s.onApplicationShutdown();

    const ids = sent.map((s) => s.split(':').slice(1).join(':'));
    expect(new Set(ids).size).toBe(12);
    expect(ids).toHaveLength(12);
    expect(new Set(sent.map((s) => s.split(':')[0])).size).toBe(1);
  });
});
