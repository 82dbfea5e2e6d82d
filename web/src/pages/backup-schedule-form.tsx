import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { mutate } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { Field, FormError, SubmitButton } from '../components/form';
import {
  given,
  offsiteDraft,
  OffsiteFields,
  placeAndTest,
  RestoreTestFields,
  testDraft,
  type OffsiteDraft,
  type TestDraft,
} from './backup-schedule-fields';
import type { BackupService, S3TargetChoice, Schedule, Server } from './backup-types';

type ScheduleInput = ProcedureInputs['setBackupSchedule'];

/** The fields the server's issues are shown beside (the others are listed above the button). */
const FIELDS = [
  'schedule',
  'timezone',
  'keepLast',
  'keepDaily',
  'keepWeekly',
  'volumes',
  'offsite.serverId',
  'offsite.directory',
  'offsite.s3TargetId',
  'restoreTest.image',
  'restoreTest.command',
  'restoreTest.timeLimitSeconds',
];

const names = (value: string) => value.split(/[\s,]+/).filter(Boolean);

/**
 * The backup schedule of a service, set whole (`setBackupSchedule`): cron and time zone; how many
 * backups are kept; what is backed up (the backup command, named volumes); where each is copied;
 * a test restore of each. `servers` are the places an SFTP copy may go; `targets` the S3 targets
 * (null when the viewer may not list them: the target's id is typed then).
 */
export function BackupScheduleForm({
  service,
  current,
  servers,
  targets,
  volumes: declared,
  onDone,
}: {
  service: BackupService;
  current: Schedule | null;
  servers: Server[];
  targets: S3TargetChoice[] | null;
  /** The named volumes the compose file declares, named in the field's hint. */
  volumes: string[];
  /** Called when saved (true) or cancelled (false). */
  onDone: (saved: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [schedule, setSchedule] = useState(current?.schedule ?? '@daily');
  const [timezone, setTimezone] = useState(current?.timezone ?? 'UTC');
  const [keepLast, setKeepLast] = useState(String(current?.retention.keepLast ?? 7));
  const [keepDaily, setKeepDaily] = useState(String(current?.retention.keepDaily ?? 7));
  const [keepWeekly, setKeepWeekly] = useState(String(current?.retention.keepWeekly ?? 4));
  const [command, setCommand] = useState(current?.command ?? service.backupCommand !== null);
  const [volumes, setVolumes] = useState(current?.volumes.join(', ') ?? '');
  const [offsite, setOffsite] = useState<OffsiteDraft>(() =>
    offsiteDraft(current?.offsite ?? null, servers, targets),
  );
  const [test, setTest] = useState<TestDraft>(() => testDraft(current?.restoreTest ?? null));
  const [enabled, setEnabled] = useState(current?.enabled ?? true);

  const save = useMutation({
    mutationFn: (input: ScheduleInput) => mutate('setBackupSchedule', input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['backupSchedule', service.id] });
      onDone(true);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      serviceId: service.id,
      schedule: schedule.trim(),
      ...(timezone.trim() ? { timezone: timezone.trim() } : {}),
      ...given('keepLast', keepLast),
      ...given('keepDaily', keepDaily),
      ...given('keepWeekly', keepWeekly),
      command,
      volumes: names(volumes),
      ...placeAndTest(offsite, test),
      enabled,
    });
  };
  const error = save.error;
  return (
    <form
      className="backup-schedule-form"
      onSubmit={submit}
      aria-label="Backup schedule"
      noValidate
    >
      <div className="field-pair">
        <Field
          name="schedule"
          label="Schedule (cron)"
          className="command-input"
          value={schedule}
          onChange={(e) => setSchedule(e.target.value)}
          hint={
            <>
              <code>minute hour day-of-month month day-of-week</code> (e.g. <code>30 2 * * *</code>
              ), or <code>@hourly</code>, <code>@daily</code>, <code>@weekly</code>.
            </>
          }
          error={error}
          required
        />
        <Field
          name="timezone"
          label="Time zone"
          value={timezone}
          onChange={(e) => setTimezone(e.target.value)}
          hint="IANA, e.g. Europe/Paris; days and weeks of retention too."
          error={error}
        />
      </div>
      <fieldset className="form-group">
        <legend>Keep</legend>
        <div className="field-row">
          <Field
            name="keepLast"
            label="The newest"
            type="number"
            inputMode="numeric"
            min={0}
            max={1000}
            value={keepLast}
            onChange={(e) => setKeepLast(e.target.value)}
            error={error}
          />
          <Field
            name="keepDaily"
            label="One a day, days"
            type="number"
            inputMode="numeric"
            min={0}
            max={3660}
            value={keepDaily}
            onChange={(e) => setKeepDaily(e.target.value)}
            error={error}
          />
          <Field
            name="keepWeekly"
            label="One a week, weeks"
            type="number"
            inputMode="numeric"
            min={0}
            max={520}
            value={keepWeekly}
            onChange={(e) => setKeepWeekly(e.target.value)}
            error={error}
          />
        </div>
        <p className="field-hint">
          Older scheduled backups are deleted, with their copies; the newest is always kept, and
          backups taken by hand are never deleted.
        </p>
      </fieldset>
      <fieldset className="form-group">
        <legend>What is backed up</legend>
        <label className="check">
          <input type="checkbox" checked={command} onChange={(e) => setCommand(e.target.checked)} />{' '}
          <span>
            Run the backup command{' '}
            {service.backupCommand === null ? (
              <span className="muted small">(this service defines none)</span>
            ) : (
              <code className="small">{service.backupCommand}</code>
            )}
          </span>
        </label>
        <Field
          name="volumes"
          label="Named volumes"
          value={volumes}
          onChange={(e) => setVolumes(e.target.value)}
          hint={`${declared.length ? `The compose file declares ${declared.join(', ')}.` : 'The compose file declares no named volumes.'} Separated by commas; each is tarred into a backup of its own. At most 10.`}
          autoComplete="off"
          spellCheck={false}
          error={error}
        />
      </fieldset>
      <OffsiteFields
        value={offsite}
        onChange={(patch) => setOffsite({ ...offsite, ...patch })}
        servers={servers}
        targets={targets}
        error={error}
      />
      <RestoreTestFields
        value={test}
        onChange={(patch) => setTest({ ...test, ...patch })}
        error={error}
      />
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />{' '}
        Enabled: backups are taken on this schedule
      </label>
      <FormError error={error} fields={FIELDS} />
      <div className="button-row">
        <SubmitButton pending={save.isPending}>Save the schedule</SubmitButton>
        <button type="button" className="button" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
