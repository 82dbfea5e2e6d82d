import { createReadStream } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '../../common/app-error.js';
import { DeploymentLookup } from '../../deployments/deployment-lookup.js';
import { s3TargetDecider } from '../../deployments/backup-schedules/s3-target.decider.js';
import {
  s3TargetStream,
  type OffsiteCopy,
  type S3TargetSettings,
} from '../../events/backup-schedules.events.js';
import { NotificationTargetPolicy } from '../../notifications/target-policy.js';
import { SECRET_BOX } from '../../secrets/secret-box.provider.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { DeciderRunner } from '../../storage/decider-runner.js';
import { ServerSessions } from '../server-sessions.js';
import type { SshSession } from '../ssh-session.js';

/** Where copies of backups go: a directory over SFTP, or an S3 bucket. */
export interface CopyPlace {
  /** As copies name it: the server's id, or `s3:<targetId>`. */
  id: string;
  /** Where this backup's copy is (a path, or `s3://bucket/key`). */
  pathOf(serviceId: string, backupId: string): string;
  put(localFile: string, sizeBytes: number, path: string): Promise<void>;
  /** Reads the copy back, chunk by chunk. */
  read(path: string, onChunk: (chunk: Buffer) => void): Promise<void>;
  remove(path: string): Promise<void>;
  close(): void;
}

type S3Library = typeof import('@aws-sdk/client-s3');
type HandlerLibrary = typeof import('@smithy/node-http-handler');
let s3Libraries: Promise<[S3Library, HandlerLibrary]> | null = null;

/** The AWS SDK, loaded at the first copy to S3: a server that copies none never holds it. */
function s3Sdk(): Promise<[S3Library, HandlerLibrary]> {
  s3Libraries ??= Promise.all([import('@aws-sdk/client-s3'), import('@smithy/node-http-handler')]);
  return s3Libraries;
}

const quiet = () => undefined;
const SILENT = { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet };

/** `s3://bucket/key` → the key. */
const keyOf = (path: string) => path.slice(path.indexOf('/', 's3://'.length) + 1);

/**
 * Opens the place a copy goes to or is in: a registered server over SFTP (its pinned host key,
 * the server address policy), or an S3 target, connecting only to the address the notification
 * address policy allows for its endpoint (checked at each copy: a name may resolve elsewhere).
 */
@Injectable()
export class CopyPlaces {
  constructor(
    private readonly lookup: DeploymentLookup,
    private readonly sessions: ServerSessions,
    private readonly runner: DeciderRunner,
    private readonly policy: NotificationTargetPolicy,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  forOffsite(offsite: OffsiteCopy): Promise<CopyPlace> {
    return 'serverId' in offsite
      ? this.sftp(offsite.serverId, offsite.directory)
      : this.s3(offsite.s3TargetId);
  }

  /** The place an existing copy is in. */
  of(placeId: string): Promise<CopyPlace> {
    return placeId.startsWith('s3:') ? this.s3(placeId.slice(3)) : this.sftp(placeId, '');
  }

  private async sftp(serverId: string, directory: string): Promise<CopyPlace> {
    const server = await this.lookup.server(serverId);
    if (!server.hostKeyApproved) throw new Error(`the host key of ${server.name} is not approved`);
    const session: SshSession = await this.sessions.open(server);
    const base = directory.replace(/\/+$/, '');
    return {
      id: server.id,
      pathOf: (serviceId, backupId) => `${base}/${serviceId}/${backupId}.bak`,
      put: async (local, _size, path) => {
        await session.makeDirectories(path.slice(0, path.lastIndexOf('/')));
        await session.upload(local, path);
      },
      read: (path, onChunk) => session.download(path, onChunk),
      remove: (path) => session.remove(path),
      close: () => session.close(),
    };
  }

  private async s3(targetId: string): Promise<CopyPlace> {
    const { settings } = await this.runner.load(s3TargetStream(targetId), s3TargetDecider);
    if (!settings) throw notFound('No such S3 target');
    const [sdk, handlers] = await s3Sdk();
    const client = new sdk.S3Client({
      region: settings.region,
      // Path-style: the host connected to is the endpoint's own, the one the policy checked.
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: true,
      credentials: {
        accessKeyId: settings.accessKeyId,
        secretAccessKey: this.box.open(settings.sealedSecretAccessKey),
      },
      requestHandler: new handlers.NodeHttpHandler(await this.pinnedAgents(settings)),
      maxAttempts: 2,
      // Failures are recorded on the copy (BackupCopyFailed); the SDK writes nothing itself.
      logger: SILENT,
      // Checksums only where S3 requires them: many S3-compatible stores do not read the
      // aws-chunked bodies with trailing checksums the SDK sends by default, and store the
      // framing with the data (Slipway's own read-back SHA-256 is the check that counts).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const { bucket, prefix } = settings;
    return {
      id: `s3:${targetId}`,
      pathOf: (serviceId, backupId) => `s3://${bucket}/${prefix}${serviceId}/${backupId}.bak`,
      put: async (local, size, path) => {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key: keyOf(path),
            Body: createReadStream(local),
            ContentLength: size,
          }),
        );
      },
      read: async (path, onChunk) => {
        const answer = await client.send(
          new sdk.GetObjectCommand({ Bucket: bucket, Key: keyOf(path) }),
        );
        for await (const chunk of answer.Body as AsyncIterable<Uint8Array>)
          onChunk(Buffer.from(chunk));
      },
      remove: async (path) => {
        await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: keyOf(path) }));
      },
      close: () => client.destroy(),
    };
  }

  /** HTTP agents that connect only to the checked address of the endpoint's host. */
  private async pinnedAgents(settings: S3TargetSettings) {
    const host = new URL(settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`)
      .hostname;
    const address = await this.policy.pin(host.replace(/^\[(.*)\]$/, '$1'));
    const family = isIP(address) === 6 ? 6 : 4;
    const lookup: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    };
    return { httpAgent: new HttpAgent({ lookup }), httpsAgent: new HttpsAgent({ lookup }) };
  }
}
