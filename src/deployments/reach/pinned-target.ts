import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { AddressGate } from './address-gate.js';
import type { SshTarget } from './ssh-connect.js';

/** The SSH target of a registered server, its private key unsealed for this connection only. */
export function sshTargetOf(
  server: {
    host: string;
    sshPort: number;
    sshUser: string;
    credentialCiphertext: string;
    hostKeyFingerprint: string;
  },
  unseal: (ciphertext: string) => string,
): SshTarget {
  return {
    host: server.host,
    port: server.sshPort,
    username: server.sshUser,
    privateKey: unseal(server.credentialCiphertext),
    hostKeyFingerprint: server.hostKeyFingerprint,
  };
}

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
