import type { Command } from 'commander';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { confirmedCall } from './confirmed-call.js';

interface Invite {
  inviteId: string;
  email: string | null;
  role: string;
  status: string;
  createdAt: string;
  expiresAt: string;
}

/** `slipway invites create|list|revoke`: joining the team by a mailed, single-use link. */
export function registerInviteCommands(program: Command): void {
  const invites = program
    .command('invites')
    .description('invite people to the team by email (a single-use link with a role)');
  invites
    .command('create <email>')
    .description('mail an invite link for this email, with a role (viewer by default)')
    .option('--role <role>', 'owner, admin, operator or viewer', 'viewer')
    .option('--expires-in-days <days>', 'how long the link works (1-30)', '7')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(
        async (
          run,
          email: string,
          opts: { role: string; expiresInDays: string; yes?: boolean },
        ) => {
          await confirm(opts.yes, `Invite ${email} as ${opts.role}`);
          const result = await run.client().mutation<Invite>('inviteMember', {
            email,
            role: opts.role,
            expiresInDays: Number(opts.expiresInDays),
          });
          run.out.ok(
            result,
            () =>
              `Invite ${result.inviteId} mailed to ${result.email} as ${result.role}; the link works once, until ${result.expiresAt}`,
          );
        },
      ),
    );
  invites
    .command('list')
    .option('--status <status>', 'pending, accepted, revoked or expired')
    .option('--limit <n>', 'at most this many (1-100)', '50')
    .action(
      action(async (run, opts: { status?: string; limit: string }) => {
        const page = await run.client().query<{ items: Invite[] }>('invites', {
          status: opts.status,
          limit: Number(opts.limit),
        });
        run.out.listing(page.items, page.items, [
          ['id', (i) => i.inviteId],
          ['email', (i) => i.email ?? '(erased)'],
          ['role', (i) => i.role],
          ['status', (i) => i.status],
          ['expires', (i) => i.expiresAt],
        ]);
      }),
    );
  confirmedCall(invites, {
    command: 'revoke <inviteId>',
    description: 'withdraw a pending invite: its link stops working',
    ask: (inviteId) => `Revoke invite ${inviteId}`,
    call: (client, inviteId) => client.mutation('revokeInvite', { inviteId }),
    said: (_, inviteId) => `Invite ${inviteId} is revoked`,
  });
}
