import type { Command } from 'commander';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { keyValues } from '../output.js';
import { showPlan, type Plan } from './plan.commands.js';
import { registerBackupCopyCommands, registerS3TargetCommands } from './backup-copies.commands.js';
import { registerBackupScheduleCommands } from './backup-schedule.commands.js';
import { resolveService } from './resolve.js';

interface Backup {
  id: string;
  serviceId: string;
  location: string;
  checksum: string;
  sizeBytes: number;
  takenAt: string;
}

export function registerBackupCommands(program: Command): void {
  const backups = program
    .command('backups')
    .description('backups of services: list, take, restore');
  backups
    .command('list')
    .description('recorded backups, newest first')
    .option('--service <service>', 'only this service (id, name or name@environment)')
    .option('--limit <n>', '1-100', '20')
    .action(
      action(async (run, opts: { service?: string; limit: string }) => {
        const client = run.client();
        const serviceId = opts.service ? await resolveService(client, opts.service) : undefined;
        const page = await client.query<{ items: Backup[]; nextCursor: string | null }>('backups', {
          serviceId,
          limit: Number(opts.limit),
        });
        run.out.listing(page, page.items, [
          ['id', (b) => b.id],
          ['service', (b) => b.serviceId],
          ['taken at', (b) => b.takenAt],
          ['size (bytes)', (b) => b.sizeBytes],
          ['checksum', (b) => `${b.checksum.slice(0, 19)}…`],
          ['location', (b) => b.location],
        ]);
      }),
    );
  backups
    .command('trigger <service>')
    .description("run the service's backup command on its server now (or tar a volume)")
    .option('--volume <name>', 'a named volume of its compose file instead')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, ref: string, opts: { yes?: boolean; volume?: string }) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        await confirm(opts.yes, `Take a backup of ${ref}`);
        run.out.progress(`Backing up ${ref}…`);
        const taken = await client.mutation<Backup & { backupId: string }>('triggerBackup', {
          serviceId,
          ...(opts.volume ? { volume: opts.volume } : {}),
        });
        run.out.ok(taken, () =>
          keyValues([
            ['backup', taken.backupId],
            ['location', taken.location],
            ['checksum', taken.checksum],
            ['size', `${taken.sizeBytes} bytes`],
            ['taken at', taken.takenAt],
          ]),
        );
      }),
    );
  backups
    .command('test-restore <backupId> [command...]')
    .description(
      'restore a backup into a scratch container and record how it went (a volume: unpacked; else --image and a command after --)',
    )
    .option('--image <image>', 'the image the test command runs in')
    .action(
      action(async (run, backupId: string, command: string[], opts: { image?: string }) => {
        const outcome = await run.client().mutation<{
          testId: string;
          passed: boolean;
          reason: string | null;
          detail: string | null;
        }>('testBackupRestore', {
          backupId,
          ...(opts.image ? { image: opts.image, command } : {}),
        });
        run.out.ok(outcome, () =>
          outcome.passed
            ? `Restore test ${outcome.testId} passed`
            : `Restore test ${outcome.testId} failed: ${outcome.reason} ${outcome.detail ?? ''}`,
        );
        if (!outcome.passed) process.exitCode = 1;
      }),
    );
  backups
    .command('restore-plan <backupId>')
    .description('preflight checks and steps for restoring a backup (same as `plan restore`)')
    .action(
      action(async (run, backupId: string) => {
        showPlan(run, await run.client().query<Plan>('backupRestorePlan', { backupId }));
      }),
    );
  registerBackupScheduleCommands(backups);
  registerBackupCopyCommands(backups);
  registerS3TargetCommands(backups);
}
