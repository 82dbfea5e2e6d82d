import { Inject, Injectable } from '@nestjs/common';
import type { ApprovalDoc } from '../../../projections/approvals.projection.js';
import type { BackupDoc } from '../../../projections/backups.projection.js';
import type { DeploymentDoc } from '../../../projections/deployments.projection.js';
import type { ServerDoc } from '../../../projections/servers.projection.js';
import type { ServiceDoc } from '../../../projections/services.projection.js';
import type { DeploymentSnapshot } from '../../events/deployments.events.js';
import { READ_STORE, type ReadStore } from '../../readstore/read-store.port.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { currentBasis, frozenSnapshot, frozenVolume, snapshotDigest } from '../approval-payload.js';
import { sameSecretValue } from '../env-vars.js';
import { composeUnifiedDiff, diffEnv, type EnvChange } from '../planning/config-diff.js';

/** A waiting request's snapshot against what runs now: the service's current deployment. */
export interface ApprovalChanges {
  /** The deployment compared with; null: the service has none yet (everything is new). */
  currentDeploymentId: string | null;
  image: { from: string | null; to: string } | null;
  server: { from: string; to: string } | null;
  /** The compose files as a unified diff; null when they are the same. */
  compose: string | null;
  /** Variables added, removed or changed: secret values compared, never shown. */
  env: EnvChange[];
}

/**
 * What an approval runs, as its request froze it: shown to whoever decides, since the reason
 * is the requester's own words. Never a secret value, a ciphertext or a file's content.
 */
export interface FrozenView {
  /** The image a deploy or rollback runs (a rollback's: its target's); null for a restore. */
  imageRef: string | null;
  server: { id: string; name: string | null } | null;
  /** sha256 of the frozen snapshot: what an approval queues, exactly. */
  snapshotDigest: string | null;
  /** The names of the snapshot's variables. */
  envNames: string[];
  /**
   * A waiting request the service changed under since it was filed (or one filed before
   * requests froze what they run): it cannot be approved, only filed again.
   */
  stale: boolean;
  /** Against what runs now, for a waiting deploy or rollback; null otherwise. */
  changes: ApprovalChanges | null;
  /** A restore's backup and the command it runs (null: the volume's restore script). */
  restore: {
    backupId: string;
    takenAt: string | null;
    volume: string | null;
    command: string | null;
  } | null;
}

/** Documents read once per page, however many requests name them. */
class Memo<T> {
  private readonly docs = new Map<string, Promise<T | null>>();
  constructor(private readonly read: (id: string) => Promise<T | null>) {}
  get(id: string | null): Promise<T | null> {
    if (!id) return Promise.resolve(null);
    if (!this.docs.has(id)) this.docs.set(id, this.read(id));
    return this.docs.get(id)!;
  }
}

/** Builds the FrozenView of approval requests, from read models (a read, never a decision). */
@Injectable()
export class ApprovalViews {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  /** A viewer for one page of requests. */
  viewer(): (request: ApprovalDoc, waiting: boolean) => Promise<FrozenView> {
    const memo = <T extends ServiceDoc | ServerDoc | DeploymentDoc | BackupDoc>(name: string) =>
      new Memo((id) => this.reads.collection<T>(name).get(id));
    const services = memo<ServiceDoc>('services');
    const servers = memo<ServerDoc>('servers');
    const deployments = memo<DeploymentDoc>('deployments');
    const backups = memo<BackupDoc>('backups');
    return async (request, waiting) => {
      const service = await services.get(request.serviceId);
      const snapshot = frozenSnapshot(request.payload);
      const serverId = snapshot?.serverId ?? stringOr(request.payload.serverId);
      const server = serverId
        ? { id: serverId, name: (await servers.get(serverId))?.name ?? null }
        : null;
      const action = actionOf(request);
      const basis = service ? currentBasis({ action, payload: request.payload }, service) : null;
      const stale = waiting && (basis === null || basis !== request.payload.basis);
      const current = waiting ? await deployments.get(service?.currentDeploymentId ?? null) : null;
      const backupId = stringOr(request.payload.backupId);
      const backup = action === 'restore' ? await backups.get(backupId) : null;
      return {
        imageRef: snapshot?.imageRef ?? stringOr(request.payload.imageRef),
        server,
        snapshotDigest: snapshot ? snapshotDigest(snapshot) : null,
        envNames: snapshot ? snapshot.env.map((v) => v.name) : [],
        stale,
        changes: waiting && snapshot ? this.changes(snapshot, current) : null,
        restore:
          action === 'restore' && backupId
            ? {
                backupId,
                takenAt: backup?.takenAt ?? null,
                volume: frozenVolume(request.payload),
                command: stringOr(request.payload.restoreCommand),
              }
            : null,
      };
    };
  }

  private changes(to: DeploymentSnapshot, from: DeploymentDoc | null): ApprovalChanges {
    const was = from?.snapshot ?? null;
    return {
      currentDeploymentId: from?.id ?? null,
      image:
        was?.imageRef === to.imageRef ? null : { from: was?.imageRef ?? null, to: to.imageRef },
      // Nothing runs yet: no server to move from.
      server: !was || was.serverId === to.serverId ? null : { from: was.serverId, to: to.serverId },
      compose: composeUnifiedDiff(was?.compose ?? '', to.compose),
      env: diffEnv(was?.env ?? [], to.env, (a, b) => sameSecretValue(this.box, a, b)).filter(
        (v) => v.change !== 'unchanged',
      ),
    };
  }
}

const actionOf = ({ action }: ApprovalDoc) =>
  action === 'rollback' || action === 'restore' ? action : 'deploy';

const stringOr = (value: unknown): string | null => (typeof value === 'string' ? value : null);
