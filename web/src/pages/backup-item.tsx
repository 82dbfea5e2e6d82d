import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate } from '../api/client';
import { Done } from '../components/fields';
import { FormError } from '../components/form';
import { StatusBadge } from '../components/status';
import { exactTime, When } from '../components/time';
import { Restore } from './backup-restore';
import {
  placeName,
  size,
  sourceOf,
  testable,
  type Backup,
  type Copy,
  type S3TargetChoice,
  type Schedule,
  type Server,
} from './backup-types';

type TestOutcome = AnswerOf<'testBackupRestore'>;

const TEST_FAILURES: Record<string, string> = {
  'checksum-mismatch': 'the backup no longer matches its checksum',
  'artifact-unavailable': 'the backup file could not be read',
  'connect-failed': 'the server could not be reached',
  'command-failed': 'the test command failed',
  'timed-out': 'stopped at its time limit',
};

const COPY_FAILURES: Record<string, string> = {
  'connect-failed': 'could not connect',
  'transfer-failed': 'the transfer failed',
  'checksum-mismatch': 'what was read back did not match',
};

/** How the backup's latest restore test went. */
function LastTest({ test }: { test: Backup['lastRestoreTest'] }) {
  if (test === null) return <span className="muted">never tested</span>;
  return (
    <>
      <StatusBadge status={test.passed ? 'passed' : 'failed'} /> <When at={test.at} />
      {!test.passed && (
        <span className="error-text small">
          {' '}
          {test.exitCode !== null && `exit code ${test.exitCode}`}
          {test.exitCode !== null && test.detail && ': '}
          {test.detail}
        </span>
      )}
    </>
  );
}

/** The backup's copies: where each is, whether it is intact, when it was last read back. */
function Copies({
  copies,
  servers,
  targets,
}: {
  copies: Copy[];
  servers: Server[];
  targets: S3TargetChoice[];
}) {
  if (copies.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="copy-list">
      {copies.map((c) => (
        <li key={c.serverId}>
          {placeName(c.serverId, servers, targets)} <StatusBadge status={c.status} />{' '}
          {c.status === 'copied' ? (
            <span className="muted small">
              {c.verifiedAt ? (
                <>
                  read back <When at={c.verifiedAt} />
                </>
              ) : (
                <>
                  copied <When at={c.copiedAt} />
                </>
              )}
            </span>
          ) : (
            <span className="error-text small">
              {c.reason ? (COPY_FAILURES[c.reason] ?? c.reason) : 'changed since it was copied'}
              {c.detail && `: ${c.detail}`}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

function TestResult({ outcome }: { outcome: TestOutcome }) {
  if (outcome.passed) {
    return (
      <Done>
        <p>Restore test passed: the backup restores.</p>
      </Done>
    );
  }
  return (
    <div className="alert alert-error" role="alert">
      <p>
        Restore test failed:{' '}
        {outcome.reason ? (TEST_FAILURES[outcome.reason] ?? outcome.reason) : 'unknown'}
        {outcome.exitCode !== null && ` (exit code ${outcome.exitCode})`}
        {outcome.detail && `: ${outcome.detail}`}
      </p>
    </div>
  );
}

/**
 * One recorded backup: when, how big, what it is of, whether a schedule took it, its latest
 * restore test and its copies; a restore test now, and a restore through its plan and an
 * approval.
 */
export function BackupItem({
  backup,
  serviceId,
  schedule,
  copies,
  servers,
  targets,
}: {
  backup: Backup;
  serviceId: string;
  schedule: Schedule | null;
  copies: Copy[];
  servers: Server[];
  targets: S3TargetChoice[];
}) {
  const can = useCan();
  const queryClient = useQueryClient();
  const hintId = useId();
  const [restoring, setRestoring] = useState(false);
  const test = useMutation({
    mutationFn: () => mutate('testBackupRestore', { backupId: backup.id }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['backups', serviceId] }),
  });
  const mayTest = testable(backup, schedule);
  const checksum = backup.checksum.replace(/^sha256:/, '');
  return (
    <li aria-label={`Backup of ${exactTime(backup.takenAt)}`}>
      <div className="backup-head">
        <p>
          <When at={backup.takenAt} /> · {size(backup.sizeBytes)} ·{' '}
          <code className="small">sha256 {checksum.slice(0, 16)}…</code>
        </p>
        {backup.scheduled && (
          <span className="tag" title="Taken by the schedule: its retention may delete it">
            scheduled
          </span>
        )}
      </div>
      <dl className="facts backup-facts">
        <div>
          <dt>Of</dt>
          <dd>{sourceOf(backup)}</dd>
        </div>
        <div>
          <dt>Last restore test</dt>
          <dd>
            <LastTest test={backup.lastRestoreTest} />
          </dd>
        </div>
        <div className="fact-wide">
          <dt>Copies</dt>
          <dd>
            <Copies copies={copies} servers={servers} targets={targets} />
          </dd>
        </div>
      </dl>
      <div className="button-row">
        {can('testBackupRestore') && (
          <button
            type="button"
            className="button"
            disabled={!mayTest || test.isPending}
            aria-describedby={mayTest ? undefined : hintId}
            onClick={() => test.mutate()}
          >
            {test.isPending ? 'Testing…' : 'Test restore'}
          </button>
        )}
        {can('backupRestorePlan') && !restoring && (
          <button type="button" className="button" onClick={() => setRestoring(true)}>
            Restore this backup…
          </button>
        )}
      </div>
      {can('testBackupRestore') && !mayTest && (
        <p className="field-hint" id={hintId}>
          The backup command&apos;s output is tested with an image and a command: set both in the
          backup schedule&apos;s restore test to test it here.
        </p>
      )}
      {test.data && <TestResult outcome={test.data} />}
      <FormError error={test.error} />
      {restoring && <Restore backup={backup} serviceId={serviceId} />}
    </li>
  );
}
