import type { Command } from 'commander';
import { ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { passwordFrom, valueFrom, type PasswordOptions } from '../user-input.js';

/**
 * `slipway init`: the first account of a new service, which is its owner, and a stored session
 * for it. On a service that already has an owner, sign-up is refused unless the server runs
 * with SLIPWAY_OPEN_SIGNUP (then it makes a viewer: said plainly); invites are the way in.
 */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('create the owner account of a new Slipway service and log in as it')
    .requiredOption('--url <url>', 'server address, e.g. http://127.0.0.1:3000')
    .option('--email <email>', 'the owner email (or SLIPWAY_EMAIL, or asked)')
    .option('--name <name>', 'the owner display name (or SLIPWAY_NAME, or asked)')
    .option(
      '--password-stdin',
      'read the password from standard input (or SLIPWAY_PASSWORD, or asked)',
    )
    .option('--context <name>', 'context name to store the session under', 'default')
    .action(
      action(
        async (
          run,
          opts: PasswordOptions & { url: string; email?: string; name?: string; context: string },
        ) => {
          const email = await valueFrom(opts.email, 'SLIPWAY_EMAIL', 'Email: ');
          const name = await valueFrom(opts.name, 'SLIPWAY_NAME', 'Name: ');
          const password = await passwordFrom(opts);
          const anon = new ApiClient({ url: opts.url, credential: null });
          const { body, session } = await anon.rest<{ user: { id: string; role: string } }>(
            '/api/auth/sign-up',
            { email, name, password },
          );
          if (!session) throw new CliError('BAD_RESPONSE', 'The server set no session');
          run.store.save(opts.context, opts.url, session);
          const owner = body.user.role === 'owner';
          run.out.ok({ context: opts.context, url: opts.url, user: body.user }, () =>
            owner
              ? `Owner ${email} created on ${opts.url} and logged in (context "${opts.context}"). Next: slipway servers keyscan HOST, then slipway servers register (see --help)`
              : `This service already has an owner: ${email} joined as ${body.user.role} and is logged in (context "${opts.context}"); an owner or admin can change the role`,
          );
        },
      ),
    );
}
