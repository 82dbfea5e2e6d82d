import type { Command } from 'commander';
import type { ServerCheckAnswer } from '../../deployments/commands/server-connection.js';
import type { HostKeyScan } from '../../deployments/reach/server-reach.js';
import type { ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { action } from '../context.js';
import { keyValues } from '../output.js';
import { describeDiagnostics } from './logs.commands.js';
import { resolveServer } from './resolve.js';

type Diagnostics = Parameters<typeof describeDiagnostics>[0];
import type { Inventory } from './inventory.js';

/** What `checkServer` answers, and `approveServerHostKey` as its `connection`. */
export type ServerCheck = ServerCheckAnswer;

/** `--port` as a number, refused here rather than sent as something else. */
export function portOption(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 1 && port <= 65535))
    throw new CliError('BAD_USAGE', `--port must be a port number (1-65535), not ${value}`);
  return port;
}

/** The host key through Slipway (it connects, not this machine); no key is an error here. */
export async function scanHostKey(
  client: ApiClient,
  host: string,
  port: number,
): Promise<HostKeyScan & { fingerprint: string }> {
  const scan = await client.mutation<HostKeyScan>('scanServerHostKey', { host, port });
  if (!scan.ok || !scan.fingerprint)
    throw new CliError(
      'NO_HOST_KEY',
      `No SSH host key from ${host}:${port}: ${scan.error ? `${scan.error.class}: ${scan.error.message}` : 'none presented'}`,
      { scan },
    );
  return scan as HostKeyScan & { fingerprint: string };
}

/** Where the server keeps the public half of a key of this type, to compare fingerprints. */
export function ownKeyHint(keyType: string | null): string {
  const file = keyType?.startsWith('ecdsa')
    ? 'ssh_host_ecdsa_key.pub'
    : keyType === 'ssh-ed25519'
      ? 'ssh_host_ed25519_key.pub'
      : keyType
        ? 'ssh_host_rsa_key.pub'
        : 'ssh_host_*_key.pub';
  return `on the server: ssh-keygen -lf /etc/ssh/${file}`;
}

const yesNo = (value: boolean | null) => (value === null ? '-' : value ? 'yes' : 'no');

/** A check for people: one line when it failed, a few key-values when it went through. */
export function describeCheck(check: ServerCheck): string {
  if (!check.ok)
    return `${check.name} (${check.target}): ${check.error?.class}: ${check.error?.message}`;
  const lines = keyValues([
    ['reachable', `yes (${check.address}, ${check.latencyMs} ms)`],
    ['host key', `matches the pinned ${check.hostKeyFingerprint}`],
    [
      'authenticated',
      check.mode === 'login'
        ? yesNo(check.authenticated)
        : 'not tried: the host key is not approved yet (key exchange only)',
    ],
  ]);
  return `${check.name} (${check.target}): ok\n${lines}`;
}

/** The registered servers at `host:port`, if the caller may read servers (else none). */
async function registeredAt(client: ApiClient, host: string, port: number) {
  try {
    const inventory = await client.query<Inventory>('infrastructureInventory');
    return inventory.servers.filter(
      (s) => s.host.toLowerCase() === host.toLowerCase() && s.sshPort === port,
    );
  } catch {
    return [];
  }
}

export function registerServerConnectionCommands(servers: Command): void {
  servers
    .command('keyscan <host>')
    .description("fetch a host's SSH host key fingerprint through Slipway, to register or approve")
    .option('--port <port>', 'SSH port', '22')
    .action(
      action(async (run, host: string, opts: { port: string }) => {
        const port = portOption(opts.port);
        const client = run.client();
        const scan = await scanHostKey(client, host, port);
        const registered = (await registeredAt(client, host, port)).map((s) => ({
          id: s.id,
          name: s.name,
          status: s.status,
          hostKeyFingerprint: s.hostKeyFingerprint,
          matches: s.hostKeyFingerprint === scan.fingerprint,
        }));
        const pending = registered.find((s) => s.matches && s.status === 'pending-host-key');
        const next = pending
          ? `slipway servers approve-host-key ${pending.name} ${scan.fingerprint} --yes`
          : registered.some((s) => s.matches)
            ? null
            : `slipway servers register NAME --host ${host} --port ${port} --user USER --key-file KEY_FILE --fingerprint ${scan.fingerprint} --yes`;
        run.out.ok({ ...scan, registered, next }, () =>
          [
            `${host}:${port} (${scan.address}) presents ${scan.keyType ?? 'a'} host key`,
            `  ${scan.fingerprint}`,
            `Compare it with the server's own before trusting it (${ownKeyHint(scan.keyType)}).`,
            ...registered.map((s) =>
              s.matches
                ? `Server ${s.name} pins this key (${s.status}).`
                : `Server ${s.name} pins ${s.hostKeyFingerprint}, not this key: the host key changed, or this is another host.`,
            ),
            ...(next ? [`Then: ${next}`] : []),
          ].join('\n'),
        );
      }),
    );

  servers
    .command('check <server>')
    .description('connect to a server as a deployment would, run nothing, and say how it went')
    .option(
      '--versions',
      'also Docker and Compose versions and free disk (POST /api/v1/servers/{id}/check, diagnostics:read)',
    )
    .action(
      action(async (run, server: string, opts: { versions?: boolean }) => {
        const client = run.client();
        const serverId = await resolveServer(client, server);
        const check: ServerCheck & Partial<Diagnostics> = opts.versions
          ? await client.call<ServerCheck & Diagnostics>(
              'POST',
              `/api/v1/servers/${serverId}/check`,
            )
          : await client.mutation<ServerCheck>('checkServer', { serverId });
        if (!check.ok) throw new CliError('CHECK_FAILED', describeCheck(check), { check });
        run.out.ok(check, () =>
          opts.versions
            ? `${describeCheck(check)}\n${describeDiagnostics({ docker: check.docker ?? null, compose: check.compose ?? null, diskFreeKib: check.diskFreeKib ?? null })}`
            : describeCheck(check),
        );
      }),
    );
}
