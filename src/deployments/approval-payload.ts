import { createHash } from 'node:crypto';
import type { ServiceDoc } from '../../projections/services.projection.js';
import { canonicalJson } from '../common/canonical-json.js';
import type { DeploymentSnapshot } from '../events/deployments.events.js';
import { serviceSnapshot } from './deployment-launcher.js';

/*
 * What an approval request freezes when it is filed, so that what is approved is what runs:
 * a deploy or rollback its whole snapshot (`payload.snapshot`, as the launcher would queue it,
 * with its `serverId` and `imageRef` beside it for readers); a restore the server and command it
 * runs. And `payload.basis`: a digest of what of the service that was made from, recomputed at
 * approval (and before a restore runs): a different one means the service changed since, and
 * the request is refused as stale rather than run on what its approver was not shown.
 */

const sha256 = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex');

/** The digest of a frozen snapshot: readers compare it, an approval launches exactly it. */
export const snapshotDigest = (snapshot: DeploymentSnapshot) => `sha256:${sha256(snapshot)}`;

/**
 * A deploy is made of the service's settings (server, compose, env, health check, routes); a
 * rollback replays its target's snapshot, so only the server it runs on comes from the service.
 */
export function launchBasis(
  action: 'deploy' | 'rollback',
  service: ServiceDoc,
  imageRef: string,
): string {
  return sha256(
    action === 'rollback' ? { serverId: service.serverId } : serviceSnapshot(service, imageRef),
  );
}

/** A restore runs on the service's server: its restore command, or a volume's restore script. */
export function restoreBasis(service: ServiceDoc, volume: string | null): string {
  return sha256({
    serverId: service.serverId,
    command: volume ? null : (service.restoreCommand ?? null),
  });
}

/** The basis a filed request is checked against now, from the service as it is. */
export function currentBasis(
  request: { action: 'deploy' | 'rollback' | 'restore'; payload: Record<string, unknown> },
  service: ServiceDoc,
): string | null {
  if (request.action === 'restore') return restoreBasis(service, frozenVolume(request.payload));
  const snapshot = frozenSnapshot(request.payload);
  return snapshot ? launchBasis(request.action, service, snapshot.imageRef) : null;
}

/** The snapshot a deploy or rollback request froze; null for one filed before they did. */
export function frozenSnapshot(payload: Record<string, unknown>): DeploymentSnapshot | null {
  const snapshot = payload.snapshot;
  return snapshot && typeof snapshot === 'object' ? (snapshot as DeploymentSnapshot) : null;
}

/** The named volume a restore request's backup is a tar of; null: the restore command's. */
export function frozenVolume(payload: Record<string, unknown>): string | null {
  return typeof payload.volume === 'string' ? payload.volume : null;
}
