import { defineEvent } from '../eventstore/define-event.js';

/**
 * How long scheduled backups are kept: the newest `keepLast`, and the newest of each of the
 * last `keepDaily` days and `keepWeekly` weeks that have one (days and weeks in the schedule's
 * time zone). A backup any rule keeps stays; the others are deleted.
 */
export type BackupRetention = { keepLast: number; keepDaily: number; keepWeekly: number };

export type BackupScheduleSettings = {
  serviceId: string;
  schedule: string;
  timezone: string;
  retention: BackupRetention;
  enabled: boolean;
  /** Where each scheduled backup is copied; absent (schedules set before copies): nowhere. */
  offsite?: OffsiteCopy | null;
  /**
   * Whether the service's backup command is run; absent (schedules set before volumes): yes.
   */
  command?: boolean;
  /** Named volumes of the compose file each tarred too; absent: none. */
  volumes?: string[];
  /** A test restore after each scheduled backup; absent or null: none. */
  restoreTest?: RestoreTestSettings | null;
};

/**
 * How a backup is test-restored: its artifact on the standard input of `command` in a one-shot
 * container of `image`, without a network, with a scratch /restore; exit code 0 passes. Null
 * image and command: a volume's tar is unpacked into /restore by the volume helper image.
 */
export type RestoreTestSettings = {
  image: string | null;
  command: string[] | null;
  timeLimitSeconds: number;
};

/** Stream `backup-schedule-<serviceId>`: the service's backup schedule, whole each time. */
export const BackupScheduleSet = defineEvent<BackupScheduleSettings>('BackupScheduleSet', 1);

export const BackupScheduleRemoved = defineEvent<{ serviceId: string }>('BackupScheduleRemoved', 1);

/**
 * Stream `backup-run-<serviceId>@<time>`: the backup the schedule made due then, claimed by the
 * first scheduler there (so several start it once), then how it ended: the backup it recorded,
 * or null when it failed (the failure itself is `BackupFailed` on the service's backups).
 */
export const ScheduledBackupClaimed = defineEvent<{ serviceId: string; scheduledFor: string }>(
  'ScheduledBackupClaimed',
  1,
);

export const ScheduledBackupFinished = defineEvent<{
  serviceId: string;
  scheduledFor: string;
  backupId: string | null;
}>('ScheduledBackupFinished', 1);

/** On the service's backups stream: a scheduled backup retention no longer keeps, deleted. */
export const BackupPruned = defineEvent<{ serviceId: string; backupId: string; location: string }>(
  'BackupPruned',
  1,
);

export const backupScheduleStream = (serviceId: string) => `backup-schedule-${serviceId}`;
export const scheduledBackupStream = (serviceId: string, time: Date) =>
  `backup-run-${serviceId}@${time.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/**
 * Where a service's backups are copied: a directory on a registered server (over SFTP), or an
 * S3 target (a bucket on S3 or S3-compatible storage, configured once with its credentials).
 */
export type OffsiteCopy = { serverId: string; directory: string } | { s3TargetId: string };

/** The place a copy is in, as copies name it: the server's id, or `s3:<targetId>`. */
export const copyPlace = (offsite: OffsiteCopy) =>
  'serverId' in offsite ? offsite.serverId : `s3:${offsite.s3TargetId}`;

/** An S3 bucket backups are copied to. The secret access key is sealed. */
export type S3TargetSettings = {
  targetId: string;
  displayName: string;
  /** https URL of the S3 API (plain http only on a loopback address); null: AWS for `region`. */
  endpoint: string | null;
  region: string;
  bucket: string;
  /** Put before `<serviceId>/<backupId>.bak` in each key; may be empty. */
  prefix: string;
  accessKeyId: string;
  sealedSecretAccessKey: string;
};

/** Stream `s3-target-<targetId>`: the target as configured (whole, every time). */
export const S3TargetConfigured = defineEvent<S3TargetSettings>('S3TargetConfigured', 1);
export const S3TargetRemoved = defineEvent<{ targetId: string }>('S3TargetRemoved', 1);
export const s3TargetStream = (targetId: string) => `s3-target-${targetId}`;

/**
 * Stream `backup-copies-<backupId>`: a copy of the backup on another server (over SFTP) or in an
 * S3 bucket, read back: its SHA-256 matched the backup's. `serverId` names the place: the
 * server's id, or `s3:<targetId>`.
 */
export const BackupCopied = defineEvent<{
  backupId: string;
  serviceId: string;
  serverId: string;
  remotePath: string;
  checksum: string;
  sizeBytes: number;
}>('BackupCopied', 1);

/** Why a copy is not good: it could not be made, or what was read back differs. */
export type CopyFailure = 'connect-failed' | 'transfer-failed' | 'checksum-mismatch';

/** A copy that could not be made, or whose bytes read back did not match (then removed). */
export const BackupCopyFailed = defineEvent<{
  backupId: string;
  serviceId: string;
  serverId: string;
  reason: CopyFailure;
  detail: string;
}>('BackupCopyFailed', 1);

/** A copy read back later (`verifyBackupCopies`) was what was copied. */
export const BackupCopyVerified = defineEvent<{
  backupId: string;
  serviceId: string;
  serverId: string;
}>('BackupCopyVerified', 1);

/** A copy read back later was not what was copied (or could not be read): it cannot be trusted. */
export const BackupCopyCorrupted = defineEvent<{
  backupId: string;
  serviceId: string;
  serverId: string;
  expected: string;
  /** SHA-256 of what was read (`sha256:<hex>`), or null when it could not be read. */
  actual: string | null;
}>('BackupCopyCorrupted', 1);

/** Retention removed the copy with its backup. */
export const BackupCopyRemoved = defineEvent<{
  backupId: string;
  serviceId: string;
  serverId: string;
}>('BackupCopyRemoved', 1);

export const backupCopiesStream = (backupId: string) => `backup-copies-${backupId}`;
