import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';

interface TrailReport {
  ok: boolean;
  eventsVerified: number;
  checkpointsVerified: number;
  firstBadPosition: number | null;
  problem: string | null;
  message: string;
}

export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description('the tamper-evident audit trail');
  audit
    .command('verify')
    .description(
      'recompute the hash chain and check the signed checkpoints; exit 1 if anything changed',
    )
    .action(
      action(async (run) => {
        const report = await run.client().query<TrailReport>('verifyAuditTrail');
        if (!report.ok)
          throw new CliError(
            'AUDIT_TRAIL_BROKEN',
            `${report.problem} at position ${report.firstBadPosition}: ${report.message}`,
            { report },
          );
        run.out.ok(report, () => report.message);
      }),
    );
  audit
    .command('seal')
    .description('seal a signed checkpoint of the chain now')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, opts: { yes?: boolean }) => {
        await confirm(opts.yes, 'Seal an audit checkpoint');
        const sealed = await run
          .client()
          .mutation<{ sequence: number; toPosition: number } | null>('sealAuditCheckpoint', {});
        run.out.ok(sealed, () =>
          sealed
            ? `Checkpoint ${sealed.sequence} sealed up to position ${sealed.toPosition}`
            : 'Nothing new to seal',
        );
      }),
    );
}
