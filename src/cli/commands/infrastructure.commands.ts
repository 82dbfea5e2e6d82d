import { registerEdgeCommands } from './edge.commands.js';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { table } from '../output.js';
import { resolveServer } from './resolve.js';
import {
  describeCheck,
  ownKeyHint,
  portOption,
  registerServerConnectionCommands,
  scanHostKey,
  type ServerCheck,
} from './server-connection.commands.js';
import type { Inventory } from './inventory.js';
import { collect } from '../option-values.js';

type LastCheck = Inventory['servers'][number]['lastCheck'];
const lastCheckText = (c: LastCheck) =>
  c
    ? `${c.ok ? `ok ${c.latencyMs} ms` : 'failed'} at ${c.at.slice(0, 16).replace('T', ' ')}`
    : null;

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
      run.out.listing(rows, rows, [
        ['id', (s) => s.id],
        ['name', (s) => s.name],
        ['host', (s) => s.host],
        ['status', (s) => s.status],
        ['host key', (s) => s.hostKeyFingerprint],
        ['last check', (s) => lastCheckText(s.lastCheck)],
      ]);
    }),
  );
  servers
    .command('register <name>')
    .requiredOption('--host <host>', 'hostname or IP address')
    .requiredOption('--user <user>', 'SSH user')
    .requiredOption('--key-file <file>', 'PEM private key for that user (stored encrypted)')
    .option(
      '--fingerprint <SHA256:...>',
      "the server's host key fingerprint (ssh-keygen -lf); without it Slipway fetches it (keyscan) and asks you to trust it",
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
            fingerprint?: string;
            port: string;
            label?: string[];
            yes?: boolean;
          },
        ) => {
          const port = portOption(opts.port);
          const client = run.client();
          const privateKey = readFileSync(opts.keyFile, 'utf8');
          // Trust on first use, but never silently: the key fetched is shown before it is pinned,
          // and stays pending until approved with its fingerprint repeated.
          const scan = opts.fingerprint ? null : await scanHostKey(client, opts.host, port);
          const fingerprint = opts.fingerprint ?? scan!.fingerprint;
          if (scan) {
            run.out.progress(`${opts.host}:${port} presents ${scan.keyType ?? 'a'} host key`);
            run.out.progress(`  ${fingerprint}`);
            run.out.progress(`Compare it with the server's own (${ownKeyHint(scan.keyType)}).`);
          }
          await confirm(
            opts.yes,
            scan
              ? `Trust host key ${fingerprint} and register server ${name}`
              : `Register server ${name}`,
          );
          const result = await client.mutation<{ serverId: string; status: string }>(
            'registerServer',
            {
              name,
              host: opts.host,
              sshPort: port,
              sshUser: opts.user,
              privateKey,
              hostKeyFingerprint: fingerprint,
              labels: opts.label,
            },
          );
          const approve = `slipway servers approve-host-key ${name} ${fingerprint} --yes`;
          run.out.ok(
            { ...result, hostKeyFingerprint: fingerprint, scanned: !!scan, next: approve },
            () =>
              [
                `Server ${name} registered (${result.serverId}), host key ${fingerprint} pinned${scan ? ` as ${opts.host}:${port} presented it` : ''}.`,
                `Approve it once you have compared it: ${approve}`,
              ].join('\n'),
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
        const result = await client.mutation<{ connection: ServerCheck | null }>(
          'approveServerHostKey',
          { serverId, fingerprint },
        );
        const { connection } = result;
        run.out.ok(result, () =>
          [
            `Host key approved; ${server} is ready.`,
            !connection
              ? 'Connection not checked: server checks are off on this Slipway.'
              : connection.ok
                ? `Connection check: ${describeCheck(connection)}`
                : `Connection check failed (the approval stands): ${describeCheck(connection)}\nWhen it is fixed: slipway servers check ${server}`,
          ].join('\n'),
        );
      }),
    );

  registerServerConnectionCommands(servers);
  registerEdgeCommands(servers);
}
