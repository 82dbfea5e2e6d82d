import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error.js';
import { registerAccessCommands } from './commands/access.commands.js';
import { registerApprovalCommands } from './commands/approvals.commands.js';
import { registerAuditCommands } from './commands/audit.commands.js';
import { registerAuthCommands } from './commands/auth.commands.js';
import { registerBackupCommands } from './commands/backups.commands.js';
import { registerGitCommands } from './commands/git.commands.js';
import { registerPreviewCommands } from './commands/previews.commands.js';
import { registerHookCommands } from './commands/hooks.commands.js';
import { registerNotificationCommands } from './commands/notifications.commands.js';
import { registerDeploymentCommands } from './commands/deployments.commands.js';
import { registerImageCommands } from './commands/images.commands.js';
import { registerInfrastructureCommands } from './commands/infrastructure.commands.js';
import { registerInitCommand } from './commands/init.command.js';
import { registerLogsCommands } from './commands/logs.commands.js';
import { registerMcpCommand } from './commands/mcp.command.js';
import { registerMemberCommands } from './commands/members.commands.js';
import { registerInviteCommands } from './commands/invites.commands.js';
import { registerLifecycleCommands } from './commands/lifecycle.commands.js';
import { registerMetricsCommand } from './commands/metrics.command.js';
import { registerMfaCommands } from './commands/mfa.commands.js';
import { registerPlanCommands } from './commands/plan.commands.js';
import { registerServiceCommands } from './commands/services.commands.js';
import { registerSsoCommands } from './commands/sso.commands.js';
import { registerDrainCommands } from './commands/drains.commands.js';
import { registerJobCommands } from './commands/jobs.commands.js';
import { registerAlertCommands } from './commands/alerts.commands.js';
import { registerUsageCommands } from './commands/usage.commands.js';
import { registerProjectCommands } from './commands/projects.commands.js';
import { Output } from './output.js';

/** The `slipway` program: one JSON document per command with --json, exit codes 0/1/2/3. */
export function buildProgram(): Command {
  const program = new Command('slipway')
    .description('Slipway deployment control plane')
    .option('--json', 'print one JSON document: {"ok":true,"data":...} or {"ok":false,"error":...}')
    .option('--context <name>', 'stored credentials to use (default: the last login)')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined })
    .showHelpAfterError(false);
  registerInitCommand(program);
  registerAuthCommands(program);
  registerDeploymentCommands(program);
  registerLogsCommands(program);
  registerPlanCommands(program);
  registerInfrastructureCommands(program);
  registerServiceCommands(program);
  registerBackupCommands(program);
  registerJobCommands(program);
  registerAlertCommands(program);
  registerUsageCommands(program);
  registerImageCommands(program);
  registerLifecycleCommands(program);
  registerMemberCommands(program);
  registerInviteCommands(program);
  registerAccessCommands(program);
  registerMfaCommands(program);
  registerSsoCommands(program);
  registerProjectCommands(program);
  registerApprovalCommands(program);
  registerAuditCommands(program);
  registerNotificationCommands(program);
  registerDrainCommands(program);
  registerHookCommands(program);
  registerGitCommands(program);
  registerPreviewCommands(program);
  registerMetricsCommand(program);
  registerMcpCommand(program);
  for (const command of program.commands) applyToTree(command);
  return program;
}

function applyToTree(command: Command): void {
  command.exitOverride().configureOutput({ writeErr: () => undefined });
  for (const child of command.commands) applyToTree(child);
}

export async function runCli(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const program = buildProgram();
  if (argv.length === 0) {
    // No arguments: what the program can do, not silence.
    process.stdout.write(program.helpInformation());
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code))
        return 0;
      return new Output(json).fail(
        new CliError('BAD_USAGE', error.message.replace(/^error: /, '')),
      );
    }
    return new Output(json).fail(error);
  }
}
