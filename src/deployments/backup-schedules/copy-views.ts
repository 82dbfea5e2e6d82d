import type { CopyFailure } from '../../events/backup-schedules.events.js';
import type { RequestContext } from '../../kernel/request-context.js';
import { seesConnectionDetails } from '../reach/connection-failures.js';

/** One sentence per kind of failure, whatever the cause (see connection-failures.ts). */
const GENERIC_COPY_FAILURES: Readonly<Record<CopyFailure, string>> = {
  'connect-failed': 'could not connect to where the copy goes',
  'transfer-failed': 'the copy did not complete',
  'checksum-mismatch': 'the copy read back did not match the backup',
};

/**
 * A copy as a caller below admin reads it: on an S3 target, the key without the bucket (which
 * `s3TargetNames` does not tell them either), and a failure in one sentence per kind, so that
 * addresses and the store's own error text reach owners and admins only.
 */
export function copyFor<
  T extends {
    serverId: string;
    remotePath: string | null;
    reason: CopyFailure | null;
    detail: string | null;
  },
>(copy: T, ctx: RequestContext | null | undefined): T {
  if (seesConnectionDetails(ctx)) return copy;
  return {
    ...copy,
    remotePath: copy.remotePath === null ? null : remotePathFor(copy.remotePath, ctx),
    detail: copy.reason && copy.detail !== null ? GENERIC_COPY_FAILURES[copy.reason] : copy.detail,
  };
}

/** Where a copy went, as this caller may read it. */
export function remotePathFor(remotePath: string, ctx: RequestContext | null | undefined): string {
  if (seesConnectionDetails(ctx)) return remotePath;
  return remotePath.replace(/^s3:\/\/[^/]*\//, 's3://…/');
}

/** Why a copy failed, as this caller may read it. */
export function copyFailureFor(
  reason: CopyFailure,
  detail: string,
  ctx: RequestContext | null | undefined,
): string {
  return seesConnectionDetails(ctx) ? detail : GENERIC_COPY_FAILURES[reason];
}
