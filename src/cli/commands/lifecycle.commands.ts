import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { keyValues } from '../output.js';
import { confirmedCall } from './confirmed-call.js';
import { resolveServer, resolveService } from './resolve.js';
import { envFrom } from './services.commands.js';
import { collect } from '../option-values.js';

function sub(program: Command, name: string): Command {
  const found = program.commands.find((c) => c.name() === name);
  if (!found) throw new Error(`no ${name} command to extend`);
  return found;
}

/** `<group> show <ref>`: the details procedure's answer for the named thing, as JSON. */
function showCommand(
  group: Command,
  noun: string,
  procedure: string,
  inputFor: (client: ApiClient, ref: string) => Promise<Record<string, string>>,
): void {
  group.command(`show <${noun}>`).action(
    action(async (run, ref: string) => {
      const client = run.client();
      const details = await client.query<Record<string, unknown>>(
        procedure,
        await inputFor(client, ref),
      );
      run.out.ok(details, () => JSON.stringify(details, null, 2));
    }),
  );
}

/**
 * After registration: `servers update|decommission|show`, `services env|archive|show`,
 * `backups restore`. Registered after the commands they extend.
 */
export function registerLifecycleCommands(program: Command): void {
  const servers = sub(program, 'servers');
  servers
    .command('update <server>')
    .description(
      'change labels, SSH user, port or key; --fingerprint pins a new host key to approve',
    )
    .option('--label <key=value>', 'a label (repeat; replaces all labels)', collect, [])
    .option('--clear-labels', 'remove every label')
    .option('--user <user>', 'SSH user')
    .option('--port <port>', 'SSH port')
    .option('--key-file <file>', 'new PEM private key')
    .option('--fingerprint <SHA256:...>', 'new host key fingerprint (then approve-host-key)')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(
        async (
          run,
          ref: string,
          opts: {
            label: string[];
            clearLabels?: boolean;
            user?: string;
            port?: string;
            keyFile?: string;
            fingerprint?: string;
            yes?: boolean;
          },
        ) => {
          const client = run.client();
          const serverId = await resolveServer(client, ref);
          const input = {
            serverId,
            labels: opts.clearLabels ? [] : opts.label.length ? opts.label : undefined,
            sshUser: opts.user,
            sshPort: opts.port === undefined ? undefined : Number(opts.port),
            privateKey: opts.keyFile ? readFileSync(opts.keyFile, 'utf8') : undefined,
            hostKeyFingerprint: opts.fingerprint,
          };
          if (Object.values(input).filter((v) => v !== undefined).length < 2)
            throw new CliError('BAD_USAGE', 'Nothing to change: give at least one option');
          await confirm(opts.yes, `Update server ${ref}`);
          const result = await client.mutation<{ updated: string[]; status: string | null }>(
            'updateServer',
            input,
          );
          run.out.ok(result, () =>
            [
              `Server ${ref} updated (${result.updated.join(', ') || 'nothing changed'})`,
              ...(result.status === 'pending-host-key'
                ? [
                    `New host key pinned: slipway servers approve-host-key ${ref} ${opts.fingerprint}`,
                  ]
                : []),
            ].join('\n'),
          );
        },
      ),
    );
  confirmedCall(servers, {
    command: 'decommission <server>',
    description: 'take a server out of service (refused while services target it)',
    resolve: resolveServer,
    ask: (ref) => `Decommission server ${ref}`,
    call: (client, serverId) => client.mutation('decommissionServer', { serverId }),
    said: (_, ref) => `Server ${ref} is decommissioned`,
  });
  showCommand(servers, 'server', 'serverDetails', async (client, ref) => ({
    serverId: await resolveServer(client, ref),
  }));

  const services = sub(program, 'services');
  services
    .command('env <service>')
    .description(
      'add, change or remove env vars; the others stay (secrets: --secret NAME reads $NAME)',
    )
    .option('--set <NAME=VALUE>', 'add or change a variable (repeat)', collect, [])
    .option('--secret <NAME>', 'add or change a secret (repeat)', collect, [])
    .option('--unset <NAME>', 'remove a variable (repeat)', collect, [])
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(
        async (
          run,
          ref: string,
          opts: { set: string[]; secret: string[]; unset: string[]; yes?: boolean },
        ) => {
          const setEnv = envFrom(opts.set, opts.secret);
          if (!setEnv && !opts.unset.length)
            throw new CliError('BAD_USAGE', 'Nothing to change: give --set, --secret or --unset');
          const client = run.client();
          const serviceId = await resolveService(client, ref);
          await confirm(opts.yes, `Change the env vars of ${ref}`);
          const result = await client.mutation('updateService', {
            serviceId,
            setEnv,
            removeEnv: opts.unset.length ? opts.unset : undefined,
          });
          run.out.ok(result, () => `Env vars of ${ref} changed`);
        },
      ),
    );
  services
    .command('archive <service>')
    .description('archive a service: history kept, no new deployments')
    .option('--compose-down', 'also run docker compose down for it on its server')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, ref: string, opts: { composeDown?: boolean; yes?: boolean }) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        await confirm(
          opts.yes,
          `Archive ${ref}${opts.composeDown ? ' and stop its containers' : ''}`,
        );
        const result = await client.mutation<{
          composeDown: { ok: boolean; failure: string | null } | null;
        }>('archiveService', { serviceId, composeDown: opts.composeDown ?? false });
        run.out.ok(result, () =>
          [
            `Service ${ref} is archived`,
            ...(result.composeDown
              ? [
                  result.composeDown.ok
                    ? 'docker compose down: done'
                    : `docker compose down failed: ${result.composeDown.failure}`,
                ]
              : []),
          ].join('\n'),
        );
      }),
    );
  showCommand(services, 'service', 'serviceDetails', async (client, ref) => ({
    serviceId: await resolveService(client, ref),
  }));

  sub(program, 'backups')
    .command('restore <backupId>')
    .description('run an approved restore (see restore-plan, then approvals request)')
    .requiredOption('--approval <approvalId>', 'the approved restore request')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, backupId: string, opts: { approval: string; yes?: boolean }) => {
        await confirm(opts.yes, `Restore backup ${backupId}`);
        run.out.progress(`Restoring ${backupId}…`);
        const result = await run.client().mutation<{
          restoreId: string;
          status: string;
          reason: string | null;
        }>('restoreBackup', { backupId, approvalId: opts.approval });
        if (result.status !== 'succeeded')
          throw new CliError('RESTORE_FAILED', `The restore failed: ${result.reason}`, result);
        run.out.ok(result, () =>
          keyValues([
            ['restore', result.restoreId],
            ['status', result.status],
          ]),
        );
      }),
    );
}
