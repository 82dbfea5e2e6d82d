import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Confirm } from '../components/confirm';
import { Done } from '../components/fields';
import { FormError } from '../components/form';
import { EmptyState, Loading } from '../components/page';
import { When } from '../components/time';
import type { S3Target } from './backup-types';
import { S3TargetForm } from './s3-target-form';

function TargetCard({ target, onChange }: { target: S3Target; onChange: () => void }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => mutate('removeS3Target', { targetId: target.targetId }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['s3Targets'] }),
  });
  const name = target.displayName;
  return (
    <section className="card s3-target" aria-label={name}>
      <div className="card-header">
        <h3>
          {name} <span className="muted small">{target.targetId}</span>
        </h3>
      </div>
      <dl className="facts">
        <div className="fact-wide">
          <dt>Endpoint</dt>
          <dd>
            {target.endpoint === null ? 'AWS S3' : <code>{target.endpoint}</code>}{' '}
            <span className="muted small">region {target.region}</span>
          </dd>
        </div>
        <div>
          <dt>Bucket</dt>
          <dd>
            <code>{target.bucket}</code>
          </dd>
        </div>
        <div>
          <dt>Key prefix</dt>
          <dd>
            {target.prefix ? <code>{target.prefix}</code> : <span className="muted">none</span>}
          </dd>
        </div>
        <div>
          <dt>Access key id</dt>
          <dd>
            <code>{target.accessKeyId}</code>
          </dd>
        </div>
        <div>
          <dt>Secret access key</dt>
          <dd>
            <span className="masked">stored sealed, not shown</span>
          </dd>
        </div>
        <div>
          <dt>Configured</dt>
          <dd>
            <When at={target.configuredAt} />
          </dd>
        </div>
      </dl>
      {asking ? (
        <Confirm
          question={`Remove ${name}?`}
          note="No copy goes there any more; the copies in the bucket stay."
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
          onKeep={() => setAsking(false)}
        >
          Yes, remove {name}
        </Confirm>
      ) : (
        <div className="button-row">
          {can('configureS3Target') && (
            <button type="button" className="button" onClick={onChange}>
              Change {name}…
            </button>
          )}
          {can('removeS3Target') && (
            <button type="button" className="button danger" onClick={() => setAsking(true)}>
              Remove {name}…
            </button>
          )}
        </div>
      )}
      <FormError error={remove.error} />
    </section>
  );
}

/**
 * The S3 buckets backups can be copied to (owners and admins): each with its endpoint, bucket,
 * prefix and access key id, never the secret; added, changed and removed here. A backup
 * schedule names one as the place of its copies.
 */
export function S3Targets() {
  const can = useCan();
  const [form, setForm] = useState<'closed' | 'new' | S3Target>('closed');
  const [note, setNote] = useState<string | null>(null);
  const readable = can('s3Targets');
  const targets = useQuery({
    queryKey: ['s3Targets'],
    queryFn: () => query('s3Targets'),
    enabled: readable,
  });
  if (!readable) return null;
  const mayConfigure = can('configureS3Target');
  return (
    <section className="s3-targets" aria-labelledby="s3-targets-title">
      <div className="section-header">
        <h2 id="s3-targets-title">Backup storage: S3 targets</h2>
        {mayConfigure && (
          <button
            type="button"
            className="button primary"
            aria-expanded={form !== 'closed'}
            onClick={() => {
              setNote(null);
              setForm(form === 'closed' ? 'new' : 'closed');
            }}
          >
            {form === 'closed' ? 'Add an S3 target' : 'Close the S3 target form'}
          </button>
        )}
      </div>
      <p className="muted">
        Buckets on AWS S3 or S3-compatible storage that backup schedules copy each backup to; every
        copy is read back and checked against the backup&apos;s checksum.
      </p>
      {note && <Done>{note}</Done>}
      {form !== 'closed' && (
        <section className="card">
          <S3TargetForm
            key={form === 'new' ? 'new' : form.targetId}
            editing={form === 'new' ? null : form}
            onDone={({ targetId, changed }) => {
              setForm('closed');
              setNote(
                `S3 target ${targetId} ${changed ? 'saved' : 'unchanged'}: its secret access key is stored sealed and never shown.`,
              );
            }}
          />
        </section>
      )}
      {targets.isPending ? (
        <Loading what="S3 targets" />
      ) : targets.isError ? (
        <FormError error={targets.error} />
      ) : targets.data.targets.length === 0 ? (
        <EmptyState title="No S3 target yet.">
          <p>
            {mayConfigure
              ? 'Add one to copy backups off the servers (or slipway backups s3 set).'
              : 'An owner or admin adds them.'}
          </p>
        </EmptyState>
      ) : (
        targets.data.targets.map((t) => (
          <TargetCard
            key={t.targetId}
            target={t}
            onChange={() => {
              setNote(null);
              setForm(t);
            }}
          />
        ))
      )}
    </section>
  );
}
