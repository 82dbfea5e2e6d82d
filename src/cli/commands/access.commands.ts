import type { Command } from 'commander';
import type { TokensPage } from '../../access/queries/tokens.js';
import { confirm } from '../confirm.js';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { commaList } from '../option-values.js';
import { confirmedCall } from './confirmed-call.js';

interface Minted {
  token: string;
  tokenId: string;
  name: string;
  scopes: string[];
  lane: string;
  expiresAt: string | null;
}

const shownOnce = (m: Minted) =>
  `${m.token}\n\nThis token is shown once. Name ${m.name}, lane ${m.lane}, scopes ${m.scopes.join(' ')}, expires ${m.expiresAt ?? 'never'}.`;

export function registerAccessCommands(program: Command): void {
  const agents = program
    .command('agents')
    .description('agent principals for AI systems and automation');
  agents
    .command('create <name>')
    .option('--preset <preset>', 'agent:read-only (default), agent:minimal-write or agent:full')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, name: string, opts: { preset?: string; yes?: boolean }) => {
        await confirm(opts.yes, `Create agent ${name}`);
        const agent = await run
          .client()
          .mutation<{ principalId: string; preset: string; capabilities: string[] }>(
            'createAgent',
            { name, preset: opts.preset },
          );
        run.out.ok(
          agent,
          () =>
            `Agent ${name} created: ${agent.principalId} (${agent.preset}: ${agent.capabilities.join(' ')})`,
        );
      }),
    );
  agents.command('list').action(
    action(async (run) => {
      const page = await run.client().query<{
        items: {
          id: string;
          name: string;
          preset: string;
          status: string;
          invalidated: boolean;
        }[];
      }>('agents', { limit: 100 });
      run.out.listing(page, page.items, [
        ['id', (a) => a.id],
        ['name', (a) => a.name],
        ['preset', (a) => a.preset],
        ['status', (a) => (a.invalidated ? 'invalidated' : a.status)],
      ]);
    }),
  );

  const tokens = program
    .command('tokens')
    .description('API tokens (values are shown once, when created)');
  tokens
    .command('create <name>')
    .option(
      '--scopes <list>',
      "comma-separated scopes, e.g. deploy:read,deploy:start (required for your own token; an agent's defaults to its preset)",
      commaList,
    )
    .option('--expires-in-days <n>', '1-365 (required for an agent token)')
    .option('--agent <principalId>', 'mint for this agent instead of yourself')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(
        async (
          run,
          name: string,
          opts: { scopes?: string[]; expiresInDays?: string; agent?: string; yes?: boolean },
        ) => {
          // Said before anything is asked or sent: what the server would refuse anyway.
          if (!opts.agent && !opts.scopes)
            throw new CliError('BAD_USAGE', 'Give --scopes for your own token');
          if (opts.agent && !opts.expiresInDays)
            throw new CliError('BAD_USAGE', 'An agent token needs --expires-in-days (1-365)');
          await confirm(opts.yes, `Create token ${name}`);
          const expiresInDays = opts.expiresInDays ? Number(opts.expiresInDays) : undefined;
          const minted = opts.agent
            ? await run.client().mutation<Minted>('generateAgentToken', {
                principalId: opts.agent,
                tokenName: name,
                scopes: opts.scopes,
                expiresInDays,
              })
            : await run.client().mutation<Minted>('createToken', {
                tokenName: name,
                scopes: opts.scopes,
                expiresInDays,
              });
          run.out.ok(minted, () => shownOnce(minted));
        },
      ),
    );
  tokens
    .command('list')
    .option('--principal <principalId>', 'only this principal')
    .action(
      action(async (run, opts: { principal?: string }) => {
        const page = await run
          .client()
          .query<TokensPage>('tokens', { limit: 100, principalId: opts.principal });
        run.out.listing(page, page.items, [
          ['id', (t) => t.tokenId],
          ['name', (t) => t.name],
          ['lane', (t) => t.lane],
          ['state', (t) => t.state],
          ['expires', (t) => t.expiresAt],
          ['last used', (t) => t.lastUsedAt],
        ]);
      }),
    );
  confirmedCall(tokens, {
    command: 'revoke <tokenId>',
    ask: (tokenId) => `Revoke token ${tokenId}`,
    call: (client, tokenId) => client.mutation('revokeToken', { tokenId }),
    said: (_, tokenId) => `Token ${tokenId} revoked`,
  });
  tokens
    .command('rotate <tokenId>')
    .option('--overlap-minutes <n>', 'how long the old token keeps working (0-10080)', '0')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, tokenId: string, opts: { overlapMinutes: string; yes?: boolean }) => {
        await confirm(opts.yes, `Rotate token ${tokenId}`);
        const minted = await run.client().mutation<Minted>('rotateToken', {
          tokenId,
          overlapMinutes: Number(opts.overlapMinutes),
        });
        run.out.ok(minted, () => shownOnce(minted));
      }),
    );
}
