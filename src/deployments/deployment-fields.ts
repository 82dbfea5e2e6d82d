import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { field, NestedList } from '../common/field-rules.js';
import { Omittable } from '../common/omittable.js';
import { COMPOSE_LIMITS } from './compose-limits.js';

/**
 * The shapes of the deployment context's input fields, one decorator each, so that a field means
 * the same wherever it appears (registering and updating a service, planning, deploying).
 */

const SLUG = /^[a-z0-9][a-z0-9._-]{0,79}$/;
const HOST =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^(?:\d{1,3}\.){3}\d{1,3}$|^\[?[0-9a-fA-F:]{2,39}\]?$/;
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;
const IMAGE_REPOSITORY = /^[a-z0-9.:-]+(\/[a-z0-9._-]+)+$|^[a-z0-9._-]+$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/** Server and service names: 1-80 lower-case letters, digits, `.` `_` `-`. */
export const SlugName = () =>
  field(
    Matches(SLUG, {
      message: ({ property }) => `${property} is 1-80 lower-case letters, digits, . _ -`,
    }),
  );

export const EnvironmentName = () =>
  field(
    Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
      message: 'environment is 1-40 lower-case letters, digits, -',
    }),
  );

export const Host = () =>
  field(Matches(HOST, { message: 'host must be a hostname or an IP address' }));

/** An SSH port, which may be left out (22). */
export const SshPortNumber = () => field(Omittable(), IsInt(), Min(1), Max(65535));

export const SshUser = () =>
  field(Matches(/^[a-z_][a-z0-9_-]{0,31}$/, { message: 'sshUser must be a POSIX user name' }));

/** A PEM private key; sealed as soon as it arrives, never returned. */
export const PrivateKeyPem = () =>
  field(
    IsString(),
    Matches(/^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/, {
      message: 'privateKey must be a PEM private key',
    }),
    MaxLength(16_384),
  );

/** A server's labels, `key=value` each, at most 32; optional. */
export const ServerLabels = () =>
  field(
    Omittable(),
    IsArray(),
    ArrayMaxSize(32),
    Matches(/^[a-z0-9][a-z0-9._-]{0,62}=[^\s=]{0,128}$/, {
      each: true,
      message: 'labels are key=value',
    }),
  );

export const HostKeyFingerprint = () =>
  field(
    Matches(FINGERPRINT, {
      message: ({ property }) => `${property} must look like SHA256:<43 base64 characters>`,
    }),
  );

/** `registry/repository` without tag or digest, at most 255 characters. */
export const ImageRepository = () =>
  field(
    IsString(),
    MaxLength(255),
    Matches(IMAGE_REPOSITORY, { message: 'imageRepository is registry/repo without tag' }),
  );

/** An image reference with a tag or digest (checked in full where it is used). */
export const ImageReference = () =>
  field(
    IsString(),
    MinLength(1),
    MaxLength(512),
    Matches(PRINTABLE_ASCII, {
      message: ({ property }) =>
        `${property} is an image reference: no spaces or control characters`,
    }),
  );

/** A compose definition (YAML); its structure is checked by the compose validator. */
export const ComposeText = () =>
  field(IsString(), MinLength(1), MaxLength(COMPOSE_LIMITS.maxChars));

export const EnvList = (of: () => new () => object) => NestedList(of, { max: 200 });

export const APPROVAL_RULES = ['none', 'agents', 'all-but-admins'] as const;
export const ApprovalRule = () => field(IsIn(APPROVAL_RULES));

export const HealthCheckUrl = () =>
  field(
    IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }),
    MaxLength(2048),
  );

export const ShellCommand = () => field(IsString(), MinLength(1), MaxLength(1024));

/**
 * The arguments of a command run in a one-shot container (a scheduled job, a restore test), e.g.
 * `["sh", "-c", "..."]`.
 */
export const ContainerCommand = () =>
  field(
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(64),
    IsString({ each: true }),
    MinLength(1, { each: true }),
    MaxLength(4096, { each: true }),
    Matches(/^[^\0]*$/, { each: true, message: 'command arguments must not contain NUL' }),
  );

/** Cron: `minute hour day-of-month month day-of-week`, or `@daily` and the like. */
export const CronSchedule = () => field(IsString(), MinLength(1), MaxLength(120));

/** The IANA time zone a schedule is read in, which may be left out (UTC). */
export const TimeZone = () => field(Omittable(), IsString(), MaxLength(64));

/** Why: shown to approvers and kept in the audit trail. */
export const Reason = () => field(IsString(), MinLength(12), MaxLength(280));

/** A short optional remark (cancellation, an approver's note). */
export const Note = () => field(IsString(), MaxLength(280));
