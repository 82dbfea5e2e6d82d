import type { Command } from 'commander';
import { action } from '../context.js';
import { table } from '../output.js';
import { resolveServer, resolveService } from './resolve.js';

interface CopyView {
  backupId: string;
  serverId: string;
  remotePath: string | null;
  status: string;
  detail: string | null;
  verifiedAt: string | null;
}

/** `backups copy|copies|verify-copies`: backups on another server, over SFTP. */
export function registerBackupCopyCommands(backups: Command): void {
  backups
    .command('copy <backupId>')
    .description('copy a backup to a directory on another registered server (read back, checked)')
    .requiredOption('--to <server>', 'the server (id or name)')
    .requiredOption(
      '--directory <path>',
      'where on it; the copy goes to <path>/<service>/<backup>.bak',
    )
    .action(
      action(async (run, backupId: string, opts: { to: string; directory: string }) => {
        const client = run.client();
        const serverId = await resolveServer(client, opts.to);
        const done = await client.mutation<{ remotePath: string }>('copyBackup', {
          backupId,
          serverId,
          directory: opts.directory,
        });
        run.out.ok(done, () => `Copied to ${opts.to}:${done.remotePath}`);
      }),
    );
  backups
    .command('copies <service>')
    .description("the copies of a service's backups on other servers")
    .action(
      action(async (run, ref: string) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        const list = await client.query<{ copies: CopyView[] }>('backupCopies', { serviceId });
        run.out.ok(list, () =>
          table(
            ['backup', 'server', 'path', 'status', 'last read back', 'detail'],
            list.copies.map((c) => [
              c.backupId,
              c.serverId,
              c.remotePath,
              c.status,
              c.verifiedAt,
              c.detail,
            ]),
          ),
        );
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
