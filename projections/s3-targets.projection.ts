import { S3TargetConfigured, S3TargetRemoved } from '../src/events/backup-schedules.events.js';
import type { EventDataOf } from '../src/eventstore/define-event.js';
import type { Doc } from '../src/readstore/read-store.port.js';
import { handlersOf, on, type Projection } from './projection.js';

/**
 * `s3_targets`: `{id (the target id), displayName, endpoint, region, bucket, prefix, accessKeyId,
 * configuredAt, configuredBy}`. Never the secret access key. A removed target has no document.
 */
export interface S3TargetDoc extends Doc {
  displayName: string;
  endpoint: string | null;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId: string;
  configuredAt: string;
  configuredBy: string | null;
}

const byTarget = (e: { data: { targetId: string } }) => e.data.targetId;

export const s3TargetsProjection: Projection = {
  name: 's3_targets',
  version: 1,
  collections: [{ name: 's3_targets' }],
  handlers: handlersOf(
    on<EventDataOf<typeof S3TargetConfigured>, S3TargetDoc>(S3TargetConfigured, {
      collection: 's3_targets',
      documentId: byTarget,
      evolve: (_c, { data, metadata, recordedAt }) => ({
        id: data.targetId,
        displayName: data.displayName,
        endpoint: data.endpoint,
        region: data.region,
        bucket: data.bucket,
        prefix: data.prefix,
        accessKeyId: data.accessKeyId,
        configuredAt: recordedAt,
        configuredBy: metadata.actor.principalId,
      }),
    }),
    on<EventDataOf<typeof S3TargetRemoved>, S3TargetDoc>(S3TargetRemoved, {
      collection: 's3_targets',
      documentId: byTarget,
      evolve: () => null,
    }),
  ),
};
