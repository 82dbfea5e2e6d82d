import type { ICommandHandler } from '@nestjs/cqrs';
import { badRequest, conflict } from '../../common/app-error.js';
import { hostKeyScanStream, ServerHostKeyScanned } from '../../events/deployments.events.js';
import { Procedure } from '../../kernel/procedure.js';
import { ProcedureCommand } from '../../kernel/procedure-message.js';
import { DEPLOYERS } from '../../kernel/roles.js';
import { EventWriter } from '../../storage/event-writer.js';
import { Host, SshPortNumber } from '../deployment-fields.js';
import { AddressRefusedError } from '../reach/address-gate.js';
import { seesConnectionDetails } from '../reach/connection-failures.js';
import { CHECKS_OFF, ServerReach, type HostKeyScan } from '../reach/server-reach.js';

export class ScanServerHostKeyInput {
  @Host()
  host!: string;

  @SshPortNumber()
  port?: number;
}

export class ScanServerHostKey extends ProcedureCommand<ScanServerHostKeyInput, HostKeyScan> {}

/**
 * `scanServerHostKey`: the host key an SSH endpoint presents, to pin at registration and approve
 * after comparing it (trust on first use, but never silently). Command lane, for callers who may
 * write servers: a keyscan reaches any address the server address policy allows, so the
 * connection goes only there, and each scan is recorded (ServerHostKeyScanned): the audit trail
 * says who had Slipway connect where, and which key it saw.
 */
@Procedure.command(ScanServerHostKey, {
  name: 'scanServerHostKey',
  roles: DEPLOYERS,
  scopes: ['server:write'],
  input: ScanServerHostKeyInput,
  description:
    'Fetches the SSH host key fingerprint {host, port?} presents (key exchange only, no login), to pin with registerServer and repeat to approveServerHostKey.',
  ownOnly: true,
})
export class ScanServerHostKeyHandler implements ICommandHandler<ScanServerHostKey> {
  constructor(
    private readonly reach: ServerReach,
    private readonly writer: EventWriter,
  ) {}

  async execute({ input, ctx }: ScanServerHostKey): Promise<HostKeyScan> {
    if (!this.reach.enabled) throw conflict(CHECKS_OFF);
    const port = input.port ?? 22;
    let scan: HostKeyScan;
    try {
      scan = await this.reach.scan(input.host, port);
    } catch (error) {
      if (!(error instanceof AddressRefusedError)) throw error;
      throw badRequest('The server address is refused', [{ path: 'host', message: error.message }]);
    }
    const { host, address, fingerprint, keyType } = scan;
    const failure = scan.error?.class ?? null;
    await this.writer.append(
      hostKeyScanStream(host, port),
      [ServerHostKeyScanned({ host, port, address, fingerprint, keyType, failure })],
      'any',
      ctx,
    );
    if (scan.ok || seesConnectionDetails(ctx)) return scan;
    return {
      ...scan,
      address: null,
      error: { class: 'connect-failed', message: `no SSH host key from ${host}:${port}` },
    };
  }
}
