import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { table } from '../output.js';
import { resolveServer } from './resolve.js';

interface Inventory {
  servers: {
    id: string;
    name: string;
    host: string;
    status: string;
    hostKeyFingerprint: string;
    services: {
      id: string;
      name: string;
      environment: string;
      currentImage: string | null;
      health: string;
    }[];
  }[];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerInfrastructureCommands(program: Command): void {
  program
    .command('inventory')
    .description('servers, their services, current images and health')
    .action(
      action(async (run) => {
        const inv = await run.client().query<Inventory>('infrastructureInventory');
        run.out.ok(inv, () =>
          table(
            ['server', 'status', 'service', 'image', 'health'],
            inv.servers.flatMap((s) =>
              s.services.length
                ? s.services.map((v) => [
                    s.name,
                    s.status,
                    `${v.name}@${v.environment}`,
                    v.currentImage,
                    v.health,
                  ])
                : [[s.name, s.status, null, null, null]],
            ),
          ),
        );
      }),
    );

  const servers = program.command('servers').description('registered servers');
  servers.command('list').action(
    action(async (run) => {
      const inv = await run.client().query<Inventory>('infrastructureInventory');
      const rows = inv.servers.map(({ services: _s, ...s }) => s);
      run.out.ok(rows, () =>
        table(
          ['id', 'name', 'host', 'status', 'host key'],
          rows.map((s) => [s.id, s.name, s.host, s.status, s.hostKeyFingerprint]),
        ),
      );
    }),
  );
  servers
    .command('register <name>')
    .requiredOption('--host <host>', 'hostname or IP address')
    .requiredOption('--user <user>', 'SSH user')
    .requiredOption('--key-file <file>', 'PEM private key for that user (stored encrypted)')
    .requiredOption(
      '--fingerprint <SHA256:...>',
      "the server's host key fingerprint (ssh-keygen -lf)",
    )
    .option('--port <port>', 'SSH port', '22')
    .option('--label <key=value>', 'a label (repeatable)', collect)
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(
        async (
          run,
          name: string,
          opts: {
            host: string;
            user: string;
            keyFile: string;
            fingerprint: string;
            port: string;
            label?: string[];
            yes?: boolean;
          },
        ) => {
          await confirm(opts.yes, `Register server ${name}`);
          const result = await run
            .client()
            .mutation<{ serverId: string; status: string }>('registerServer', {
              name,
              host: opts.host,
              sshPort: Number(opts.port),
              sshUser: opts.user,
              privateKey: readFileSync(opts.keyFile, 'utf8'),
              hostKeyFingerprint: opts.fingerprint,
              labels: opts.label,
            });
          run.out.ok(
            result,
            () =>
              `Server ${name} registered (${result.serverId}); approve its host key: slipway servers approve-host-key ${result.serverId} ${opts.fingerprint} --yes`,
          );
        },
      ),
    );
  servers
    .command('approve-host-key <server> <fingerprint>')
    .option('--yes', 'do not ask for confirmation')
    .action(
      action(async (run, server: string, fingerprint: string, opts: { yes?: boolean }) => {
        const client = run.client();
        const serverId = await resolveServer(client, server);
        await confirm(opts.yes, `Approve host key ${fingerprint} for ${server}`);
        const result = await client.mutation('approveServerHostKey', { serverId, fingerprint });
        run.out.ok(result, () => `Host key approved; ${server} is ready`);
      }),
    );
}
