import { defineEvent } from '../eventstore/define-event.js';

/**
 * Stream `restore-<approvalId>`: the one restore an approved `restore` request allows. Its first
 * event claims the approval (appended to an empty stream), so an approval runs once.
 */
export const RestoreStarted = defineEvent<{
  restoreId: string;
  approvalId: string;
  backupId: string;
  serviceId: string;
  serverId: string;
}>('RestoreStarted', 1);

/** The restore command exited 0 with the verified artifact on its standard input. */
export const RestoreSucceeded = defineEvent<{
  restoreId: string;
  backupId: string;
  serviceId: string;
  sizeBytes: number;
}>('RestoreSucceeded', 1);

/**
 * The restore did not happen or did not work: `checksum-mismatch` (the artifact's SHA-256 is not
 * the recorded one: nothing was sent to the server), `artifact-unavailable`, `connect-failed`,
 * `command-failed` (with the exit code). Notification subscriptions map this event.
 */
export const RestoreFailed = defineEvent<{
  restoreId: string;
  backupId: string;
  serviceId: string;
  reason: 'checksum-mismatch' | 'artifact-unavailable' | 'connect-failed' | 'command-failed';
  detail: string;
  exitCode: number | null;
}>('RestoreFailed', 1);

/** Stream `service-backups-<serviceId>`: `triggerBackup` ran and failed (nothing was recorded). */
export const BackupFailed = defineEvent<{
  serviceId: string;
  reason: 'connect-failed' | 'command-failed';
  detail: string;
  exitCode: number | null;
}>('BackupFailed', 1);

/**
 * Stream `service-backups-<serviceId>`: a backup restored into a scratch container (never the
 * service), its artifact verified first, and how that went: the test command's exit code 0
 * passes. A failed test is notified under `backup.failed`.
 */
export const BackupRestoreTestPassed = defineEvent<{
  testId: string;
  backupId: string;
  serviceId: string;
  image: string;
  sizeBytes: number;
}>('BackupRestoreTestPassed', 1);

export const BackupRestoreTestFailed = defineEvent<{
  testId: string;
  backupId: string;
  serviceId: string;
  image: string;
  reason:
    | 'checksum-mismatch'
    | 'artifact-unavailable'
    | 'connect-failed'
    | 'command-failed'
    | 'timed-out';
  detail: string;
  exitCode: number | null;
}>('BackupRestoreTestFailed', 1);

export const restoreStream = (approvalId: string) => `restore-${approvalId}`;
