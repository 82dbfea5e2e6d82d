import type { Command } from 'commander';
import type { ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';

interface Member {
  id: string;
  name: string;
  email: string | null;
  role: string;
  status: string;
  createdAt: string;
  invalidated: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every member, page after page (a team is small: at most 20 pages of 100). */
async function allMembers(client: ApiClient): Promise<Member[]> {
  const members: Member[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const result = await client.query<{ items: Member[]; nextCursor: string | null }>('members', {
      limit: 100,
      cursor,
    });
    members.push(...result.items);
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return members;
}

/** A member by id or by email (emails compare without case). */
export async function resolveMember(client: ApiClient, ref: string): Promise<Member> {
  const members = await allMembers(client);
  const found = UUID.test(ref)
    ? members.find((m) => m.id === ref.toLowerCase())
    : members.find((m) => m.email?.toLowerCase() === ref.toLowerCase());
  if (!found) throw new CliError('NOT_FOUND', `No member ${ref}`);
  return found;
}

const label = (m: Member) => (m.email ? `${m.name} <${m.email}>` : m.name || m.id);

export function registerMemberCommands(program: Command): void {
  const members = program
    .command('members')
    .description('the people of the team: roles and deactivation');
  members.command('list').action(
    action(async (run) => {
      const items = await allMembers(run.client());
      run.out.listing(items, items, [
        ['id', (m) => m.id],
        ['name', (m) => m.name],
        ['email', (m) => m.email ?? '(erased)'],
        ['role', (m) => m.role],
        ['status', (m) => m.status],
        ['since', (m) => m.createdAt.slice(0, 10)],
      ]);
    }),
  );
  members
    .command('role <member> <role>')
    .description('change the role of a member (id or email): owner, admin, operator or viewer')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, ref: string, role: string, opts: { yes?: boolean }) => {
        const client = run.client();
        const member = await resolveMember(client, ref);
        await confirm(
          opts.yes,
          `Change the role of ${label(member)} from ${member.role} to ${role}`,
        );
        const result = await client.mutation('changeUserRole', { userId: member.id, role });
        run.out.ok(result, () => `${label(member)} is now ${role}`);
      }),
    );
  members
    .command('deactivate <member>')
    .description('deactivate a member (id or email): their sessions end and tokens stop working')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, ref: string, opts: { yes?: boolean }) => {
        const client = run.client();
        const member = await resolveMember(client, ref);
        await confirm(opts.yes, `Deactivate ${label(member)}`);
        const result = await client.mutation('deactivateUser', { userId: member.id });
        run.out.ok(result, () => `${label(member)} is deactivated`);
      }),
    );
}
