import { useId } from 'react';
import type { ProcedureInputs } from '../api/contract';
import { SelectField } from '../components/fields';
import { Field } from '../components/form';
import { commandLine, type S3TargetChoice, type Schedule, type Server } from './backup-types';

type ScheduleInput = ProcedureInputs['setBackupSchedule'];

/** Where copies go, as the form holds it: a choice and the fields of each place. */
export interface OffsiteDraft {
  place: 'none' | 'server' | 's3';
  serverId: string;
  directory: string;
  s3TargetId: string;
}

/** The restore test, as the form holds it (the command: one shell line). */
export interface TestDraft {
  on: boolean;
  image: string;
  command: string;
  timeLimit: string;
}

export function offsiteDraft(
  offsite: Schedule['offsite'],
  servers: Server[],
  targets: S3TargetChoice[] | null,
): OffsiteDraft {
  return {
    place: offsite === null ? 'none' : 's3TargetId' in offsite ? 's3' : 'server',
    serverId: offsite && 'serverId' in offsite ? offsite.serverId : (servers[0]?.id ?? ''),
    directory: offsite && 'directory' in offsite ? offsite.directory : '/var/backups/slipway',
    s3TargetId:
      offsite && 's3TargetId' in offsite ? offsite.s3TargetId : (targets?.[0]?.targetId ?? ''),
  };
}

export function testDraft(test: Schedule['restoreTest']): TestDraft {
  return {
    on: test !== null,
    image: test?.image ?? '',
    command: commandLine(test?.command ?? null),
    timeLimit: String(test?.timeLimitSeconds ?? 1800),
  };
}

/** `{[key]: n}` for a number typed, nothing for an empty field (the server's default). */
export function given<K extends string>(key: K, value: string): Partial<Record<K, number>> {
  return value.trim() === '' ? {} : ({ [key]: Number(value) } as Record<K, number>);
}

/** The part of `setBackupSchedule`'s input the two drafts make. */
export function placeAndTest(offsite: OffsiteDraft, test: TestDraft): Partial<ScheduleInput> {
  const image = test.image.trim();
  const command = test.command.trim();
  return {
    ...(offsite.place === 'server'
      ? { offsite: { serverId: offsite.serverId, directory: offsite.directory.trim() } }
      : offsite.place === 's3'
        ? { offsite: { s3TargetId: offsite.s3TargetId.trim() } }
        : {}),
    ...(test.on
      ? {
          restoreTest: {
            ...(image ? { image } : {}),
            ...(command ? { command: ['sh', '-c', command] } : {}),
            ...given('timeLimitSeconds', test.timeLimit),
          },
        }
      : {}),
  };
}

const PLACES = [
  ['none', 'Nowhere: keep it on the control plane only'],
  ['server', 'Another server, over SFTP'],
  ['s3', 'An S3 bucket'],
] as const;

/** Where each scheduled backup is copied: nowhere, a server's directory, or an S3 target. */
export function OffsiteFields({
  value,
  onChange,
  servers,
  targets,
  error,
}: {
  value: OffsiteDraft;
  onChange: (patch: Partial<OffsiteDraft>) => void;
  servers: Server[];
  /** The S3 targets; null when the viewer may not list them (the id is typed then). */
  targets: S3TargetChoice[] | null;
  error: unknown;
}) {
  const radio = useId();
  return (
    <fieldset className="form-group">
      <legend>Copy each backup to</legend>
      {PLACES.map(([place, label]) => (
        <label key={place} className="check">
          <input
            type="radio"
            name={`${radio}-place`}
            value={place}
            checked={value.place === place}
            onChange={() => onChange({ place })}
          />{' '}
          {label}
        </label>
      ))}
      {value.place === 'server' && (
        <div className="field-pair">
          <SelectField
            name="offsite.serverId"
            label="Server"
            value={value.serverId}
            onChange={(e) => onChange({ serverId: e.target.value })}
            options={servers.map((s) => ({ value: s.id, label: s.name }))}
            hint="A registered server whose host key is approved."
            error={error}
          />
          <Field
            name="offsite.directory"
            label="Directory"
            value={value.directory}
            onChange={(e) => onChange({ directory: e.target.value })}
            hint="Copies go to <directory>/<service id>/."
            error={error}
          />
        </div>
      )}
      {value.place === 's3' &&
        (targets === null ? (
          <Field
            name="offsite.s3TargetId"
            label="S3 target id"
            value={value.s3TargetId}
            onChange={(e) => onChange({ s3TargetId: e.target.value })}
            hint="Owners and admins configure S3 targets, on the Servers page."
            error={error}
          />
        ) : targets.length === 0 ? (
          <p className="muted small">
            No S3 target yet: an owner or admin adds one on the Servers page.
          </p>
        ) : (
          <SelectField
            name="offsite.s3TargetId"
            label="S3 target"
            value={value.s3TargetId}
            onChange={(e) => onChange({ s3TargetId: e.target.value })}
            options={targets.map((t) => ({
              value: t.targetId,
              label: `${t.displayName} (${t.bucket ?? t.targetId})`,
            }))}
            error={error}
          />
        ))}
    </fieldset>
  );
}

/** A test restore of each scheduled backup into a scratch container: on or off, how. */
export function RestoreTestFields({
  value,
  onChange,
  error,
}: {
  value: TestDraft;
  onChange: (patch: Partial<TestDraft>) => void;
  error: unknown;
}) {
  return (
    <fieldset className="form-group">
      <legend>Restore test</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={value.on}
          onChange={(e) => onChange({ on: e.target.checked })}
        />{' '}
        Restore each scheduled backup into a scratch container (never the service) and record how it
        went
      </label>
      {value.on && (
        <>
          <div className="field-pair">
            <Field
              name="restoreTest.image"
              label="Test image"
              value={value.image}
              onChange={(e) => onChange({ image: e.target.value })}
              hint="e.g. postgres:16. Needed, with a command, for the backup command's output; empty for volumes alone."
              autoComplete="off"
              spellCheck={false}
              error={error}
            />
            <Field
              name="restoreTest.timeLimitSeconds"
              label="Test time limit (seconds)"
              type="number"
              inputMode="numeric"
              min={10}
              max={3600}
              value={value.timeLimit}
              onChange={(e) => onChange({ timeLimit: e.target.value })}
              error={error}
            />
          </div>
          <Field
            name="restoreTest.command"
            label="Test command"
            className="command-input"
            value={value.command}
            onChange={(e) => onChange({ command: e.target.value })}
            hint={
              <>
                One shell line, run as <code>sh -c &quot;…&quot;</code> with the backup on its
                standard input (e.g. <code>pg_restore --list</code>); exit 0 passes. With neither
                image nor command, a volume&apos;s tar is unpacked into /restore.
              </>
            }
            autoComplete="off"
            spellCheck={false}
            error={error}
          />
        </>
      )}
    </fieldset>
  );
}
