import type { Command } from 'commander';
import { serviceVersion } from '../../common/version.js';
import { CliError, exitCodeFor } from '../cli-error.js';
import { runFor } from '../context.js';
import { escapeControls } from '../terminal-text.js';

/**
 * `slipway mcp`: the MCP server on stdio for a local agent, authenticated by the stored CLI
 * credential or SLIPWAY_URL + SLIPWAY_TOKEN. Stdout carries the protocol only; problems go to
 * stderr.
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'serve MCP on stdio for an agent, forwarding to the service with your token (not a session)',
    )
    .action(async (_opts: unknown, command: Command) => {
      try {
        const { connection } = runFor(command).client();
        const token = connection.credential;
        if (!token?.startsWith('slw_')) {
          throw new CliError(
            'AUTH_REQUIRED',
            'slipway mcp needs an API token, not a session: `slipway login --token slw_...` or SLIPWAY_TOKEN',
          );
        }
        // Loaded here, not at start: every other command would pay for the MCP SDK.
        const { runMcpBridge } = await import('../mcp-bridge.js');
        await runMcpBridge({ url: connection.url, token, version: serviceVersion() });
      } catch (error) {
        const e =
          error instanceof CliError
            ? error
            : new CliError('MCP_FAILED', error instanceof Error ? error.message : String(error));
        process.stderr.write(`slipway mcp: ${escapeControls(`${e.code}: ${e.message}`)}\n`);
        process.exitCode = exitCodeFor(e.code);
      }
    });
}
