import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { resolveMember } from './members.commands.js';
import { resolveServer, resolveService } from './resolve.js';

interface ProjectView {
  projectId: string;
  name: string;
  role: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Projects: what services and servers belong to, and who holds which role in each. */
export function registerProjectCommands(program: Command): void {
  const projects = program
    .command('projects')
    .description('projects: services and servers grouped, with a role per project');

  projects
    .command('list')
    .description('the projects you reach, with your role in each')
    .action(
      action(async (run) => {
        const { items } = await run.client().query<{ items: ProjectView[] }>('projects');
        run.out.listing({ items }, items, [
          ['id', (p) => p.projectId],
          ['name', (p) => p.name],
          ['your role', (p) => p.role],
        ]);
      }),
    );

  projects
    .command('create <projectId> <name>')
    .description('create a project (owners and admins)')
    .action(
      action(async (run, projectId: string, name: string) => {
        const done = await run.client().mutation('createProject', { projectId, name });
        run.out.ok(done, () => `Project ${projectId} created`);
      }),
    );

  projects
    .command('grant <projectId> <member> <role>')
    .description('give a member (id or email) or an agent (id) a role in a project')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, projectId: string, ref: string, role: string, opts: { yes?: boolean }) => {
        const client = run.client();
        const principalId = UUID.test(ref) ? ref : (await resolveMember(client, ref)).id;
        await confirm(opts.yes, `Give ${ref} the role ${role} in project ${projectId}`);
        const done = await client.mutation<{ changed: boolean }>('grantProjectRole', {
          projectId,
          principalId,
          role,
        });
        run.out.ok(
          done,
          () => `${ref} is ${role} in ${projectId}${done.changed ? '' : ' (unchanged)'}`,
        );
      }),
    );

  projects
    .command('revoke <projectId> <member>')
    .description("take a member's or an agent's role in a project away")
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, projectId: string, ref: string, opts: { yes?: boolean }) => {
        const client = run.client();
        const principalId = UUID.test(ref) ? ref : (await resolveMember(client, ref)).id;
        await confirm(opts.yes, `Take the role of ${ref} in project ${projectId} away`);
        const done = await client.mutation('revokeProjectRole', { projectId, principalId });
        run.out.ok(done, () => `${ref} holds no role in ${projectId} now`);
      }),
    );

  projects
    .command('move <kind> <ref> <projectId>')
    .description('move a service or a server (name or id) to another project')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, kind: string, ref: string, projectId: string, opts: { yes?: boolean }) => {
        if (kind !== 'service' && kind !== 'server')
          throw new CliError('BAD_USAGE', 'Move a service or a server');
        const client = run.client();
        const resourceId =
          kind === 'service' ? await resolveService(client, ref) : await resolveServer(client, ref);
        await confirm(opts.yes, `Move ${kind} ${ref} to project ${projectId}`);
        const done = await client.mutation('moveToProject', { kind, resourceId, projectId });
        run.out.ok(done, () => `${kind} ${ref} is in project ${projectId}`);
      }),
    );
}
