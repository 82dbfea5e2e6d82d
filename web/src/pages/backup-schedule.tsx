import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../api/access';
import { mutate } from '../api/client';
import { Confirm } from '../components/confirm';
import { Done } from '../components/fields';
import { FormError } from '../components/form';
import { StatusBadge } from '../components/status';
import { exactTime, NextRun, When } from '../components/time';
import { BackupScheduleForm } from './backup-schedule-form';
import {
  offsiteText,
  retentionText,
  seconds,
  type BackupService,
  type S3TargetChoice,
  type Schedule,
  type Server,
} from './backup-types';

/** What a schedule backs up, in words. */
function sources(schedule: Schedule) {
  const parts = [
    ...(schedule.command ? ['the backup command'] : []),
    ...schedule.volumes.map((v) => `volume ${v}`),
  ];
  return parts.join(', ');
}

function RestoreTestText({ test }: { test: Schedule['restoreTest'] }) {
  if (test === null) return <span className="muted">none</span>;
  return (
    <>
      {test.image === null ? (
        'volumes unpacked into a scratch container'
      ) : (
        <>
          <code>{test.image}</code> running <code>{(test.command ?? []).join(' ')}</code>
        </>
      )}{' '}
      <span className="muted small">(at most {seconds(test.timeLimitSeconds)})</span>
    </>
  );
}

function LastRun({ run }: { run: Schedule['lastRun'] }) {
  if (run === null) return <span className="muted">none yet</span>;
  return (
    <>
      <StatusBadge status={run.backupId === null ? 'failed' : 'succeeded'} />{' '}
      <span title={`due ${exactTime(run.scheduledFor)}`}>
        <When at={run.at} />
      </span>
    </>
  );
}

function ScheduleFacts({
  schedule,
  servers,
  targets,
}: {
  schedule: Schedule;
  servers: Server[];
  targets: S3TargetChoice[];
}) {
  return (
    <dl className="facts">
      <div>
        <dt>Schedule</dt>
        <dd>
          <code>{schedule.schedule}</code> <span className="muted">in</span> {schedule.timezone}
        </dd>
      </div>
      <div>
        <dt>Next run</dt>
        <dd>
          <NextRun at={schedule.nextRunAt} />
        </dd>
      </div>
      <div>
        <dt>Last run</dt>
        <dd>
          <LastRun run={schedule.lastRun} />
        </dd>
      </div>
      <div>
        <dt>Backs up</dt>
        <dd>{sources(schedule)}</dd>
      </div>
      <div className="fact-wide">
        <dt>Keeps</dt>
        <dd>{retentionText(schedule.retention)}</dd>
      </div>
      <div className="fact-wide">
        <dt>Copies to</dt>
        <dd>{offsiteText(schedule.offsite, servers, targets)}</dd>
      </div>
      <div className="fact-wide">
        <dt>Restore test</dt>
        <dd>
          <RestoreTestText test={schedule.restoreTest} />
        </dd>
      </div>
    </dl>
  );
}

/**
 * A service's backup schedule, a section of its backups dialog: when backups are taken by
 * themselves, what they are of, how many are kept, where they are copied and how they are tested;
 * set, changed and removed (after a confirmation) by those allowed to.
 */
export function BackupScheduleSection({
  service,
  schedule,
  servers,
  targets,
  volumes,
}: {
  service: BackupService;
  schedule: Schedule | null;
  servers: Server[];
  /** The S3 targets, or null when the viewer may not list them. */
  targets: S3TargetChoice[] | null;
  /** The named volumes the service's compose file declares. */
  volumes: string[];
}) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: () => mutate('removeBackupSchedule', { serviceId: service.id }),
    onSuccess: () => {
      setAsking(false);
      setNote('Schedule removed: the backups it took stay.');
      void queryClient.invalidateQueries({ queryKey: ['backupSchedule', service.id] });
    },
  });
  const maySet = can('setBackupSchedule');
  return (
    <section className="backup-schedule" aria-labelledby={`backup-schedule-${service.id}`}>
      <div className="section-header">
        <h3 id={`backup-schedule-${service.id}`}>Schedule</h3>
        {schedule && <StatusBadge status={schedule.enabled ? 'enabled' : 'disabled'} />}
      </div>
      {note && <Done>{note}</Done>}
      {editing ? (
        <BackupScheduleForm
          service={service}
          current={schedule}
          servers={servers.filter((s) => s.hostKeyApproved)}
          targets={targets}
          volumes={volumes}
          onDone={(saved) => {
            setEditing(false);
            setNote(saved ? 'Schedule saved.' : null);
          }}
        />
      ) : schedule === null ? (
        <p className="muted">
          No backup schedule: backups are taken only by hand
          {maySet ? '.' : ' (an operator, admin or owner sets a schedule).'}
        </p>
      ) : (
        <ScheduleFacts schedule={schedule} servers={servers} targets={targets ?? []} />
      )}
      {!editing &&
        maySet &&
        (asking ? (
          <Confirm
            question="Remove the schedule?"
            note="No more backups are taken by themselves; those taken stay."
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
            onKeep={() => setAsking(false)}
          >
            Yes, remove the schedule
          </Confirm>
        ) : (
          <div className="button-row">
            <button
              type="button"
              className="button"
              onClick={() => {
                setNote(null);
                setEditing(true);
              }}
            >
              {schedule ? 'Change the schedule' : 'Set a schedule'}
            </button>
            {schedule && can('removeBackupSchedule') && (
              <button type="button" className="button danger" onClick={() => setAsking(true)}>
                Remove the schedule…
              </button>
            )}
          </div>
        ))}
      <FormError error={remove.error} />
    </section>
  );
}
