import { badRequest } from '../../common/app-error.js';
import type { DeploymentLookup } from '../../deployments/deployment-lookup.js';

/** The server or the service a call names: exactly one of the two, and it exists. */
export async function alertTarget(
  input: { serverId?: string; serviceId?: string },
  lookup: DeploymentLookup,
): Promise<{ serverId: string; serviceId: null } | { serverId: null; serviceId: string }> {
  if (input.serverId && input.serviceId) {
    throw badRequest('name a server or a service, not both', [
      { path: 'serviceId', message: 'leave out serverId or serviceId' },
    ]);
  }
  if (input.serviceId) {
    await lookup.service(input.serviceId);
    return { serverId: null, serviceId: input.serviceId };
  }
  if (input.serverId) {
    await lookup.server(input.serverId);
    return { serverId: input.serverId, serviceId: null };
  }
  throw badRequest('name a server or a service', [
    { path: 'serverId', message: 'serverId or serviceId is required' },
  ]);
}
