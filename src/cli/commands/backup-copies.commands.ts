import type { Command } from 'commander';
import type { S3TargetName, S3TargetView } from '../../runner/backups/s3-targets/s3-targets.js';
import { action } from '../context.js';
import { stdinFirstLine } from '../user-input.js';
import { confirmedCall } from './confirmed-call.js';
import { resolveServer, resolveService } from './resolve.js';

interface CopyView {
  backupId: string;
  serverId: string;
  remotePath: string | null;
  status: string;
  detail: string | null;
  verifiedAt: string | null;
}

/** `backups copy|copies|verify-copies`: backups on another server (SFTP) or in S3. */
export function registerBackupCopyCommands(backups: Command): void {
  backups
    .command('copy <backupId>')
    .description('copy a backup to another server or an S3 target (read back, checked)')
    .option('--to <server>', 'the server (id or name), with --directory')
    .option('--directory <path>', 'where on it; the copy goes to <path>/<service>/<backup>.bak')
    .option('--s3 <target>', 'or an S3 target (see `backups s3 list`)')
    .action(
      action(
        async (run, backupId: string, opts: { to?: string; directory?: string; s3?: string }) => {
          const client = run.client();
          const place = opts.s3
            ? { s3TargetId: opts.s3 }
            : {
                ...(opts.to ? { serverId: await resolveServer(client, opts.to) } : {}),
                ...(opts.directory ? { directory: opts.directory } : {}),
              };
          const done = await client.mutation<{ remotePath: string }>('copyBackup', {
            backupId,
            ...place,
          });
          run.out.ok(done, () => `Copied to ${done.remotePath}`);
        },
      ),
    );
  backups
    .command('copies <service>')
    .description("the copies of a service's backups on other servers")
    .action(
      action(async (run, ref: string) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        const list = await client.query<{ copies: CopyView[] }>('backupCopies', { serviceId });
        run.out.listing(list, list.copies, [
          ['backup', (c) => c.backupId],
          ['server', (c) => c.serverId],
          ['path', (c) => c.remotePath],
          ['status', (c) => c.status],
          ['last read back', (c) => c.verifiedAt],
          ['detail', (c) => c.detail],
        ]);
      }),
    );
  backups
    .command('verify-copies <service>')
    .description("read every copy of a service's backups back and compare its SHA-256")
    .action(
      action(async (run, ref: string) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        const done = await client.mutation<{
          checked: number;
          intact: number;
          corrupted: { backupId: string; serverId: string }[];
        }>('verifyBackupCopies', { serviceId });
        run.out.ok(done, () =>
          [
            `${done.intact} of ${done.checked} copies intact`,
            ...done.corrupted.map((c) => `corrupted: ${c.backupId} on ${c.serverId}`),
          ].join('\n'),
        );
        if (done.corrupted.length > 0) process.exitCode = 1;
      }),
    );
}

/** `backups s3 list|set|remove`: the S3 buckets backups may be copied to. */
export function registerS3TargetCommands(backups: Command): void {
  const s3 = backups.command('s3').description('S3 (or S3-compatible) buckets for backup copies');
  s3.command('list')
    .description('the S3 targets (never their secret)')
    .option('--names', 'ids and names only: what those who set backup schedules may list')
    .action(
      action(async (run, opts: { names?: boolean }) => {
        if (opts.names) {
          const named = await run.client().query<{ targets: S3TargetName[] }>('s3TargetNames');
          run.out.listing(named, named.targets, [
            ['id', (t) => t.targetId],
            ['name', (t) => t.displayName],
          ]);
          return;
        }
        const list = await run.client().query<{ targets: S3TargetView[] }>('s3Targets');
        run.out.listing(list, list.targets, [
          ['id', (t) => t.targetId],
          ['name', (t) => t.displayName],
          ['endpoint', (t) => t.endpoint ?? 'AWS'],
          ['region', (t) => t.region],
          ['bucket', (t) => t.bucket],
          ['prefix', (t) => t.prefix],
          ['access key id', (t) => t.accessKeyId],
        ]);
      }),
    );
  s3.command('set <targetId>')
    .description('add or change a target (the secret access key is read from standard input)')
    .requiredOption('--bucket <name>', 'the bucket (it must exist)')
    .requiredOption('--region <region>', 'e.g. eu-west-1')
    .requiredOption('--access-key-id <id>', 'the access key id')
    .option('--endpoint <url>', 'the S3 API of S3-compatible storage (default: AWS)')
    .option('--prefix <prefix>', 'before <service>/<backup>.bak in each key, ending in /')
    .option('--name <name>', 'a name people read (default: the id)')
    .option('--secret-stdin', 'read the secret access key from standard input (first line)')
    .action(
      action(
        async (
          run,
          targetId: string,
          opts: {
            bucket: string;
            region: string;
            accessKeyId: string;
            endpoint?: string;
            prefix?: string;
            name?: string;
            secretStdin?: boolean;
          },
        ) => {
          const secretAccessKey = opts.secretStdin ? await stdinFirstLine() : undefined;
          const done = await run.client().mutation<{ changed: boolean }>('configureS3Target', {
            targetId,
            displayName: opts.name ?? targetId,
            region: opts.region,
            bucket: opts.bucket,
            accessKeyId: opts.accessKeyId,
            ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
            ...(opts.prefix ? { prefix: opts.prefix } : {}),
            ...(secretAccessKey ? { secretAccessKey } : {}),
          });
          run.out.ok(done, () => `S3 target ${targetId} ${done.changed ? 'saved' : 'unchanged'}`);
        },
      ),
    );
  confirmedCall(s3, {
    command: 'remove <targetId>',
    description: 'no copy goes there any more (the copies stay in the bucket)',
    ask: (targetId) => `Remove S3 target ${targetId}`,
    call: (client, targetId) => client.mutation('removeS3Target', { targetId }),
    said: (_, targetId) => `S3 target ${targetId} removed`,
  });
}
