import { useQuery } from '@tanstack/react-query';
import { useCan } from '../api/access';
import { query } from '../api/client';
import { FormError } from '../components/form';
import { Loading } from '../components/page';
import { BackupActions } from './backup-actions';
import { BackupItem } from './backup-item';
import { BackupScheduleSection } from './backup-schedule';
import type { BackupService, Copy, Server } from './backup-types';

/** While the dialog is open, the lists are read again this often (a scheduled backup may land). */
const POLL_MS = 30_000;

/**
 * A service's backups, in its dialog: the schedule that takes them (set, changed, removed), then
 * the recorded backups newest first, each with what it is of, its latest restore test and its
 * copies; backups taken now, copies read back, a backup test-restored or restored through its
 * plan and an approval. Controls the viewer may not use are not shown.
 */
export function ServiceBackups({
  service,
  servers,
}: {
  service: BackupService;
  servers: Server[];
}) {
  const can = useCan();
  const serviceId = service.id;
  const schedule = useQuery({
    queryKey: ['backupSchedule', serviceId],
    queryFn: () => query('backupSchedule', { serviceId }),
    refetchInterval: POLL_MS,
  });
  // Owners and admins read the whole targets; those who set schedules, their ids and names.
  const fullTargets = can('s3Targets');
  const readsTargets = fullTargets || can('s3TargetNames');
  const targets = useQuery({
    queryKey: [fullTargets ? 's3Targets' : 's3TargetNames'],
    queryFn: () => (fullTargets ? query('s3Targets') : query('s3TargetNames')),
    enabled: readsTargets,
  });
  // The compose file's named volumes: what "back up volume X now" offers.
  const details = useQuery({
    queryKey: ['serviceDetails', serviceId],
    queryFn: () => query('serviceDetails', { serviceId }),
  });
  const backups = useQuery({
    queryKey: ['backups', serviceId],
    queryFn: () => query('backups', { serviceId, limit: 20 }),
    refetchInterval: POLL_MS,
  });
  const copies = useQuery({
    queryKey: ['backupCopies', serviceId],
    queryFn: () => query('backupCopies', { serviceId }),
    refetchInterval: POLL_MS,
  });
  const current = schedule.data?.schedule ?? null;
  const targetList = targets.data?.targets ?? [];
  const copyList = copies.data?.copies ?? [];
  const copiesOf = (backupId: string): Copy[] => copyList.filter((c) => c.backupId === backupId);
  const declared = details.data?.volumes ?? [];
  // Those a schedule or a backup named stay offered after the compose file dropped them.
  const volumes = [
    ...new Set([
      ...declared,
      ...(current?.volumes ?? []),
      ...(backups.data?.items.flatMap((b) => (b.volume ? [b.volume] : [])) ?? []),
    ]),
  ].sort();
  return (
    <div className="service-backups">
      {schedule.isPending || (readsTargets && targets.isPending) ? (
        <Loading what="the backup schedule" />
      ) : schedule.isError ? (
        <FormError error={schedule.error} />
      ) : (
        <BackupScheduleSection
          service={service}
          schedule={current}
          servers={servers}
          targets={readsTargets ? targetList : null}
          volumes={declared}
        />
      )}
      <section className="backup-list" aria-labelledby={`backups-${serviceId}`}>
        <div className="section-header">
          <h3 id={`backups-${serviceId}`}>Backups</h3>
        </div>
        <BackupActions service={service} volumes={volumes} hasCopies={copyList.length > 0} />
        <FormError error={copies.error} />
        {backups.isPending ? (
          <Loading what="backups" />
        ) : backups.isError ? (
          <FormError error={backups.error} />
        ) : backups.data.items.length === 0 ? (
          <p className="muted">
            No backup recorded yet: <code>slipway backups trigger</code> takes one when the service
            has a backup command, and a schedule takes them by itself.
          </p>
        ) : (
          <ul className="plain-list" aria-label={`Backups of ${service.name}`}>
            {backups.data.items.map((b) => (
              <BackupItem
                key={b.id}
                backup={b}
                serviceId={serviceId}
                schedule={current}
                copies={copiesOf(b.id)}
                servers={servers}
                targets={targetList}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
