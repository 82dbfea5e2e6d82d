import type { ServerDoc } from '../../projections/servers.projection.js';
import type { AddressGate } from '../deployments/reach/address-gate.js';
import { sshTargetOf, type SshTarget } from './ssh-session.js';

/**
 * The SSH target of a server with its host resolved once and checked against the address
 * policy: the connection goes to that address, so a name cannot be re-resolved elsewhere.
 */
export async function pinnedSshTarget(
  gate: AddressGate,
  server: ServerDoc,
  unseal: (ciphertext: string) => string,
): Promise<SshTarget> {
  const address = await gate.pin(server.host);
  return { ...sshTargetOf(server, unseal), host: address };
}
