import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCan } from '../api/access';
import { mutate } from '../api/client';
import { Done } from '../components/fields';
import { FormError } from '../components/form';
import { size, type BackupService } from './backup-types';

/**
 * Backups taken now (`triggerBackup`: the backup command, or one named volume) and the copies
 * read back (`verifyBackupCopies`). `volumes` are the names known to be the compose file's:
 * those the schedule backs up and those backed up before.
 */
export function BackupActions({
  service,
  volumes,
  hasCopies,
}: {
  service: BackupService;
  volumes: string[];
  hasCopies: boolean;
}) {
  const can = useCan();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['backups', service.id] });
    void queryClient.invalidateQueries({ queryKey: ['backupCopies', service.id] });
  };
  const take = useMutation({
    mutationFn: (volume: string | null) =>
      mutate('triggerBackup', { serviceId: service.id, ...(volume ? { volume } : {}) }),
    onSettled: refresh,
  });
  const verify = useMutation({
    mutationFn: () => mutate('verifyBackupCopies', { serviceId: service.id }),
    onSettled: refresh,
  });
  const mayTake = can('triggerBackup');
  const mayVerify = can('verifyBackupCopies') && hasCopies;
  if (!mayTake && !mayVerify) return null;
  const busy = take.isPending || verify.isPending;
  const checked = verify.data;
  return (
    <>
      <div className="button-row">
        {mayTake && service.backupCommand !== null && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => take.mutate(null)}
          >
            Back up now
          </button>
        )}
        {mayTake &&
          volumes.map((v) => (
            <button
              key={v}
              type="button"
              className="button"
              disabled={busy}
              onClick={() => take.mutate(v)}
            >
              Back up volume {v} now
            </button>
          ))}
        {mayVerify && (
          <button type="button" className="button" disabled={busy} onClick={() => verify.mutate()}>
            {verify.isPending ? 'Reading the copies back…' : 'Verify copies'}
          </button>
        )}
      </div>
      {take.isPending && (
        <p className="muted small" role="status">
          Taking the backup…
        </p>
      )}
      {take.data && (
        <Done>
          <p>
            Backup taken ({take.data.volume ? `volume ${take.data.volume}` : 'backup command'},{' '}
            {size(take.data.sizeBytes)}): it is listed below.
          </p>
        </Done>
      )}
      {checked &&
        (checked.corrupted.length === 0 ? (
          <Done>
            <p>
              {checked.checked === 1 ? '1 copy' : `${checked.checked} copies`} read back: all
              intact.
            </p>
          </Done>
        ) : (
          <div className="alert alert-error" role="alert">
            <p>
              {checked.corrupted.length} of {checked.checked} copies changed since they were copied:
              marked corrupted below.
            </p>
          </div>
        ))}
      <FormError error={take.error ?? verify.error} />
    </>
  );
}
