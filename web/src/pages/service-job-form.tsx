import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { mutate } from '../api/client';
import type { ProcedureInputs } from '../api/contract';
import { Done, SelectField } from '../components/fields';
import { Field, FormError, SubmitButton } from '../components/form';

type DefineInput = ProcedureInputs['defineScheduledJob'];
type Overlap = NonNullable<DefineInput['overlap']>;

const FIELDS = [
  'name',
  'schedule',
  'timezone',
  'composeService',
  'command',
  'timeLimitSeconds',
  'overlap',
];

/**
 * A new scheduled job of a service. The command is one shell command line, run as
 * `sh -c <line>` in a one-shot container of the compose service (so `;`, `&&`, pipes and quotes
 * work as in a shell); the API takes the argument vector.
 */
export function ServiceJobForm({ serviceId }: { serviceId: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [schedule, setSchedule] = useState('@daily');
  const [timezone, setTimezone] = useState('UTC');
  const [composeService, setComposeService] = useState('');
  const [command, setCommand] = useState('');
  const [timeLimit, setTimeLimit] = useState('3600');
  const [overlap, setOverlap] = useState<Overlap>('forbid');
  const [enabled, setEnabled] = useState(true);
  const define = useMutation({
    mutationFn: (input: DefineInput) => mutate('defineScheduledJob', input),
    onSuccess: () => {
      setName('');
      setCommand('');
      void queryClient.invalidateQueries({ queryKey: ['scheduledJobs', serviceId] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    define.mutate({
      serviceId,
      name,
      schedule,
      ...(timezone.trim() ? { timezone: timezone.trim() } : {}),
      ...(composeService.trim() ? { composeService: composeService.trim() } : {}),
      command: ['sh', '-c', command],
      ...(timeLimit.trim() ? { timeLimitSeconds: Number(timeLimit) } : {}),
      overlap,
      enabled,
    });
  };
  return (
    <>
      <h4>Add a job</h4>
      <form onSubmit={submit} aria-label="Add a scheduled job" noValidate>
        <div className="field-pair">
          <Field
            name="name"
            label="Job name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            hint="1-40 lower-case letters, digits and - (e.g. nightly-report)."
            error={define.error}
            required
          />
          <Field
            name="composeService"
            label="Compose service (optional)"
            value={composeService}
            onChange={(e) => setComposeService(e.target.value)}
            hint="The service whose image runs the job; left empty, the compose file's first."
            error={define.error}
          />
        </div>
        <div className="field-pair">
          <Field
            name="schedule"
            label="Schedule"
            value={schedule}
            onChange={(e) => setSchedule(e.target.value)}
            hint={
              <>
                Cron (<code>minute hour day-of-month month day-of-week</code>, e.g.{' '}
                <code>30 2 * * *</code>) or <code>@hourly</code>, <code>@daily</code>,{' '}
                <code>@weekly</code>, <code>@monthly</code>, <code>@yearly</code>.
              </>
            }
            error={define.error}
            required
          />
          <Field
            name="timezone"
            label="Time zone"
            value={timezone}
            onChange={(e) => setTimezone(e.target.value)}
            hint="The IANA zone the schedule is read in (e.g. Europe/Paris); default UTC."
            error={define.error}
          />
        </div>
        <Field
          name="command"
          label="Command"
          className="command-input"
          value={command}
          onChange={(e) => setCommand(e.target.value)}
          hint={
            <>
              One shell command line, run as <code>sh -c &quot;…&quot;</code> in a one-shot
              container of the service&apos;s current deployment: <code>;</code>, <code>&&</code>,
              pipes and quotes work as in a shell (e.g. <code>./manage.py migrate && echo ok</code>
              ).
            </>
          }
          error={define.error}
          autoComplete="off"
          spellCheck={false}
          required
        />
        <div className="field-pair">
          <SelectField
            name="overlap"
            label="When a run comes due while the last one still runs"
            value={overlap}
            onChange={(e) => setOverlap(e.target.value as Overlap)}
            options={[
              { value: 'forbid', label: 'skip it (forbid overlap)' },
              { value: 'allow', label: 'start it beside the other (allow overlap)' },
              { value: 'replace', label: 'stop the running one and start it (replace)' },
            ]}
            error={define.error}
          />
          <Field
            name="timeLimitSeconds"
            label="Time limit (seconds)"
            type="number"
            inputMode="numeric"
            min={1}
            max={86400}
            value={timeLimit}
            onChange={(e) => setTimeLimit(e.target.value)}
            hint="A run still going after this is stopped and fails; 1-86400, default 3600."
            error={define.error}
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />{' '}
          Enabled: runs on its schedule (a disabled job runs only when started by hand)
        </label>
        <FormError error={define.error} fields={FIELDS} />
        <SubmitButton pending={define.isPending}>Add the job</SubmitButton>
      </form>
      {define.isSuccess && (
        <div className="after-form">
          <Done>
            <p>Job {define.variables.name} added: it is listed below.</p>
          </Done>
        </div>
      )}
    </>
  );
}
