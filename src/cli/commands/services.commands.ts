import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { confirm } from '../confirm.js';
import { action } from '../context.js';
import { registerServiceObservationCommands } from './logs.commands.js';
import { resolveServer, resolveService } from './resolve.js';
import type { Inventory } from './inventory.js';
import { collect } from '../option-values.js';
import { routeFrom } from './edge.commands.js';

interface EnvVar {
  name: string;
  value: string;
  secret?: boolean;
}

/**
 * `NAME=VALUE` pairs; a secret given as `NAME` alone takes its value from the environment
 * variable of that name, so that it is never on the command line (shell history, `ps`).
 */
export function envFrom(plain: string[], secrets: string[]): EnvVar[] | undefined {
  if (!plain.length && !secrets.length) return undefined;
  const pair = (entry: string, secret: boolean): EnvVar => {
    const at = entry.indexOf('=');
    if (at > 0) return { name: entry.slice(0, at), value: entry.slice(at + 1), secret };
    const fromEnv = secret ? process.env[entry] : undefined;
    if (fromEnv === undefined)
      throw new CliError(
        'BAD_USAGE',
        secret
          ? `--secret ${entry}: give NAME=VALUE, or set the environment variable ${entry}`
          : `--env ${entry}: give NAME=VALUE`,
      );
    return { name: entry, value: fromEnv, secret };
  };
  return [...plain.map((e) => pair(e, false)), ...secrets.map((e) => pair(e, true))];
}

interface SettingsOptions {
  composeFile?: string;
  approvalRule?: string;
  healthCheckUrl?: string;
  backupCommand?: string;
  env: string[];
  secret: string[];
  route: string[];
  clearRoutes?: boolean;
  yes?: boolean;
}

/** The settings both `register` and `update` take. */
function withSettings(command: Command): Command {
  return command
    .option('--approval-rule <rule>', 'none, agents or all-but-admins')
    .option('--health-check-url <url>', 'HTTP probe after deploying')
    .option('--backup-command <command>', 'shell command whose stdout is the backup')
    .option('--env <NAME=VALUE>', 'an environment variable (repeatable)', collect, [])
    .option(
      '--secret <NAME[=VALUE]>',
      'a secret variable, sealed at rest and masked when shown (repeatable; NAME alone reads $NAME)',
      collect,
      [],
    )
    .option(
      '--route <DOMAIN[/PATH]=SERVICE:PORT[,no-tls][,hsts]>',
      'route a domain (and path) through the server’s edge proxy to a compose service’s container port, on HTTPS with an ACME certificate unless no-tls, with Strict-Transport-Security if hsts (repeatable; replaces the list)',
      collect,
      [],
    )
    .option('--clear-routes', 'remove every route')
    .option('--yes', 'do not ask for confirmation');
}

function settings(opts: SettingsOptions) {
  return {
    compose: opts.composeFile ? readFileSync(opts.composeFile, 'utf8') : undefined,
    approvalRule: opts.approvalRule,
    healthCheckUrl: opts.healthCheckUrl,
    backupCommand: opts.backupCommand,
    env: envFrom(opts.env, opts.secret),
    routes: opts.clearRoutes ? [] : opts.route.length ? opts.route.map(routeFrom) : undefined,
  };
}

export function registerServiceCommands(program: Command): void {
  const services = program.command('services').description('deployable services');
  registerServiceObservationCommands(services);
  services.command('list').action(
    action(async (run) => {
      const inv = await run.client().query<Inventory>('infrastructureInventory');
      const rows = inv.servers.flatMap((s) => s.services.map((v) => ({ ...v, server: s.name })));
      run.out.listing(rows, rows, [
        ['id', (v) => v.id],
        ['service', (v) => `${v.name}@${v.environment}`],
        ['server', (v) => v.server],
        ['image', (v) => v.currentImage],
        ['health', (v) => v.health],
      ]);
    }),
  );
  withSettings(
    services
      .command('register')
      .requiredOption('--server <server>', 'target server (id or name)')
      .requiredOption('--name <name>', 'service name')
      .requiredOption('--environment <env>', 'e.g. production, staging')
      .requiredOption('--image-repository <repo>', 'registry/repo the service deploys')
      .requiredOption('--compose-file <file>', 'compose definition'),
  ).action(
    action(
      async (
        run,
        opts: SettingsOptions & {
          server: string;
          name: string;
          environment: string;
          imageRepository: string;
        },
      ) => {
        const client = run.client();
        const serverId = await resolveServer(client, opts.server);
        await confirm(opts.yes, `Register service ${opts.name}@${opts.environment}`);
        const result = await client.mutation<{ serviceId: string }>('registerService', {
          name: opts.name,
          environment: opts.environment,
          serverId,
          imageRepository: opts.imageRepository,
          ...settings(opts),
          approvalRule: opts.approvalRule ?? 'none',
        });
        run.out.ok(
          result,
          () => `Service ${opts.name}@${opts.environment} registered (${result.serviceId})`,
        );
      },
    ),
  );
  withSettings(
    services
      .command('update <service>')
      .description(
        'change a service (id, name or name@env); later deployments use the change. --env and --secret replace the whole list of variables',
      )
      .option('--server <server>', 'move the service to this server (id or name)')
      .option('--image-repository <repo>', 'registry/repo the service deploys')
      .option('--compose-file <file>', 'compose definition'),
  ).action(
    action(
      async (
        run,
        ref: string,
        opts: SettingsOptions & { server?: string; imageRepository?: string },
      ) => {
        const client = run.client();
        const serviceId = await resolveService(client, ref);
        const changes = {
          serverId: opts.server ? await resolveServer(client, opts.server) : undefined,
          imageRepository: opts.imageRepository,
          ...settings(opts),
        };
        const named = Object.entries(changes)
          .filter(([, v]) => v !== undefined)
          .map(([k]) => k);
        if (!named.length)
          throw new CliError('BAD_USAGE', 'Nothing to change: give at least one option');
        await confirm(opts.yes, `Update ${ref}: ${named.join(', ')}`);
        const result = await client.mutation('updateService', { serviceId, ...changes });
        run.out.ok(result, () => `Service ${ref} updated (${named.join(', ')})`);
      },
    ),
  );
}
