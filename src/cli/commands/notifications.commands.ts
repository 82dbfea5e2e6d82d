import type { Command } from 'commander';
import { action } from '../context.js';
import { keyValues } from '../output.js';
import { commaList } from '../option-values.js';

interface Channel {
  channelId: string;
  name: string;
  kind: string;
  target: string;
  subscriptions: string[];
  enabled: boolean;
  secret?: string | null;
}

interface Delivery {
  deliveryId: string;
  channelId: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

function channelLines(c: Channel): [string, string][] {
  return [
    ['channel', c.channelId],
    ['name', c.name],
    ['kind', c.kind],
    ['target', c.target],
    ['subscriptions', c.subscriptions.join(', ') || '(none)'],
    ['enabled', String(c.enabled)],
  ];
}

export function registerNotificationCommands(program: Command): void {
  const notifications = program
    .command('notifications')
    .description('notification channels (webhook, email, Slack) and their deliveries');
  notifications
    .command('list')
    .description('channels, their masked targets and subscriptions')
    .action(
      action(async (run) => {
        const page = await run.client().query<{ items: Channel[] }>('notificationChannels');
        run.out.listing(page, page.items, [
          ['id', (c) => c.channelId],
          ['name', (c) => c.name],
          ['kind', (c) => c.kind],
          ['target', (c) => c.target],
          ['enabled', (c) => c.enabled],
          ['subscriptions', (c) => c.subscriptions.join(',')],
        ]);
      }),
    );
  notifications
    .command('create <name>')
    .description('a channel; a webhook channel prints its signing secret once')
    .requiredOption('--kind <kind>', 'webhook, email or slack')
    .requiredOption('--target <target>', 'the URL (webhook, slack) or email address (email)')
    .option('--on <subjects>', 'comma-separated: deployment.succeeded, deployment.failed, ...', '')
    .action(
      action(async (run, name: string, opts: { kind: string; target: string; on: string }) => {
        const created = await run.client().mutation<Channel>('createNotificationChannel', {
          name,
          kind: opts.kind,
          target: opts.target,
          subscriptions: commaList(opts.on),
        });
        run.out.ok(created, () =>
          [
            keyValues(channelLines(created)),
            created.secret
              ? `\nSigning secret (shown once): ${created.secret}\nVerify X-Slipway-Signature = sha256=HMAC-SHA256(secret, X-Slipway-Timestamp + "." + body).`
              : '',
          ].join(''),
        );
      }),
    );
  notifications
    .command('update <channelId>')
    .description('rename, retarget, resubscribe, enable or disable a channel')
    .option('--name <name>')
    .option('--target <target>')
    .option('--on <subjects>', 'replaces the subscriptions (comma-separated; "" for none)')
    .option('--enable')
    .option('--disable')
    .action(
      action(
        async (
          run,
          channelId: string,
          opts: {
            name?: string;
            target?: string;
            on?: string;
            enable?: boolean;
            disable?: boolean;
          },
        ) => {
          const updated = await run.client().mutation<Channel>('updateNotificationChannel', {
            channelId,
            name: opts.name,
            target: opts.target,
            subscriptions: opts.on === undefined ? undefined : commaList(opts.on),
            enabled: opts.enable ? true : opts.disable ? false : undefined,
          });
          run.out.ok(updated, () => keyValues(channelLines(updated)));
        },
      ),
    );
  notifications
    .command('test <channelId>')
    .description('queue a test message; see `slipway notifications deliveries`')
    .action(
      action(async (run, channelId: string) => {
        const queued = await run
          .client()
          .mutation<{ testId: string }>('testNotificationChannel', { channelId });
        run.out.ok(queued, () => `Test ${queued.testId} queued on ${channelId}.`);
      }),
    );
  notifications
    .command('deliveries')
    .description('deliveries newest first: status, attempts, last error')
    .option('--channel <channelId>')
    .option('--status <status>', 'pending, delivered or failed')
    .option('--limit <n>', '1-100', '20')
    .action(
      action(async (run, opts: { channel?: string; status?: string; limit: string }) => {
        const page = await run.client().query<{ items: Delivery[] }>('notificationDeliveries', {
          channelId: opts.channel,
          status: opts.status,
          limit: Number(opts.limit),
        });
        run.out.listing(page, page.items, [
          ['id', (d) => d.deliveryId],
          ['channel', (d) => d.channelId],
          ['subject', (d) => d.subject],
          ['status', (d) => d.status],
          ['attempts', (d) => d.attempts],
          ['last error', (d) => d.lastError ?? ''],
          ['created', (d) => d.createdAt],
        ]);
      }),
    );
}
