import type { ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import type { Inventory } from './inventory.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A service by id, `name` (when only one environment has it) or `name@environment`. */
export async function resolveService(client: ApiClient, ref: string): Promise<string> {
  if (UUID.test(ref)) return ref;
  return (await findService(client, ref)).id;
}

/** A bare tag (`1.4.3`) means that tag of the service's image repository. */
const BARE_TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** The service and the full image reference to deploy to it (`TAG` or `registry/repo:tag`). */
export async function resolveDeployTarget(
  client: ApiClient,
  ref: string,
  image: string,
): Promise<{ serviceId: string; imageRef: string }> {
  if (!BARE_TAG.test(image))
    return { serviceId: await resolveService(client, ref), imageRef: image };
  const service = await findService(client, ref);
  return { serviceId: service.id, imageRef: `${service.imageRepository}:${image}` };
}

async function findService(client: ApiClient, ref: string) {
  const [name, environment] = ref.split('@');
  const inventory = await client.query<Inventory>('infrastructureInventory');
  const matches = inventory.servers
    .flatMap((s) => s.services)
    .filter((s) =>
      UUID.test(ref)
        ? s.id === ref
        : s.name === name && (!environment || s.environment === environment),
    );
  if (matches.length === 1) return matches[0];
  throw new CliError(
    matches.length ? 'AMBIGUOUS' : 'NOT_FOUND',
    matches.length
      ? `Several services are named ${name}: use name@environment`
      : `No service ${ref}`,
  );
}

export async function resolveServer(client: ApiClient, ref: string): Promise<string> {
  if (UUID.test(ref)) return ref;
  const server = (await client.query<Inventory>('infrastructureInventory')).servers.find(
    (s) => s.name === ref,
  );
  if (!server) throw new CliError('NOT_FOUND', `No server ${ref}`);
  return server.id;
}
