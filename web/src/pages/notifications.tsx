import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AnswerOf } from '../api/answers';
import { useCan } from '../api/access';
import { mutate, query } from '../api/client';
import { Done } from '../components/fields';
import { FormError } from '../components/form';
import { EmptyState, Loading, Page } from '../components/page';
import { StatusBadge } from '../components/status';
import { When } from '../components/time';
import { Drains } from './drains';
import { NotificationChannelForm } from './notification-form';

type Channel = AnswerOf<'notificationChannels'>['items'][number];

function ChannelCard({ channel }: { channel: Channel }) {
  const can = useCan();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['notificationChannels'] });
    void queryClient.invalidateQueries({ queryKey: ['notificationDeliveries'] });
  };
  const toggle = useMutation({
    mutationFn: () =>
      mutate('updateNotificationChannel', {
        channelId: channel.channelId,
        enabled: !channel.enabled,
      }),
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: () => mutate('testNotificationChannel', { channelId: channel.channelId }),
    onSuccess: refresh,
  });
  return (
    <section className="card" aria-label={channel.name}>
      <div className="card-header">
        <h2>{channel.name}</h2>
        <StatusBadge status={channel.enabled ? 'enabled' : 'disabled'} />
      </div>
      <dl className="facts">
        <div>
          <dt>Kind</dt>
          <dd>{channel.kind}</dd>
        </div>
        <div>
          <dt>Target</dt>
          <dd>
            <code>{channel.target}</code>
          </dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>{channel.subscriptions.join(', ') || 'none'}</dd>
        </div>
      </dl>
      {can('updateNotificationChannel') && can('testNotificationChannel') && (
        <div className="button-row">
          <button
            type="button"
            className="button"
            disabled={test.isPending || !channel.enabled}
            onClick={() => test.mutate()}
          >
            Send a test to {channel.name}
          </button>
          <button
            type="button"
            className="button"
            disabled={toggle.isPending}
            onClick={() => toggle.mutate()}
          >
            {channel.enabled ? `Pause ${channel.name}` : `Resume ${channel.name}`}
          </button>
        </div>
      )}
      {test.data && (
        <Done>
          <p>Test queued: its delivery shows below.</p>
        </Done>
      )}
      <FormError error={test.error ?? toggle.error} />
    </section>
  );
}

function Deliveries({ channels }: { channels: Channel[] }) {
  const deliveries = useQuery({
    queryKey: ['notificationDeliveries'],
    queryFn: () => query('notificationDeliveries', { limit: 50 }),
    refetchInterval: 3000,
  });
  const nameOf = (id: string) => channels.find((c) => c.channelId === id)?.name ?? id;
  return (
    <section className="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      {deliveries.isPending ? (
        <Loading what="deliveries" />
      ) : deliveries.isError ? (
        <FormError error={deliveries.error} />
      ) : deliveries.data.items.length === 0 ? (
        <p className="muted">Nothing sent yet: send a test to a channel.</p>
      ) : (
        <div className="table-scroll">
          <table className="table stack" aria-label="Deliveries">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
                <th scope="col">Queued</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.items.map((d) => (
                <tr key={d.deliveryId}>
                  <td data-label="Channel">{nameOf(d.channelId)}</td>
                  <td data-label="Event">{d.testId ? 'test' : d.subject}</td>
                  <td data-label="Status">
                    <StatusBadge status={d.status} />
                  </td>
                  <td data-label="Attempts">{d.attempts}</td>
                  <td data-label="Last error">
                    {d.lastError ?? '—'}
                    {d.lastStatusCode !== null && ` (HTTP ${d.lastStatusCode})`}
                  </td>
                  <td data-label="Queued">
                    <When at={d.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Notification channels (webhook, email, Slack), their tests and the deliveries; the drains. */
export function NotificationsPage() {
  const can = useCan();
  const [adding, setAdding] = useState(false);
  const channels = useQuery({
    queryKey: ['notificationChannels'],
    queryFn: () => query('notificationChannels'),
  });
  return (
    <Page
      title="Notifications"
      actions={
        can('createNotificationChannel') && (
          <button
            type="button"
            className="button primary"
            aria-expanded={adding}
            onClick={() => setAdding(!adding)}
          >
            {adding ? 'Close the form' : 'Add a channel'}
          </button>
        )
      }
    >
      {adding && (
        <section className="card">
          <NotificationChannelForm />
        </section>
      )}
      {channels.isPending ? (
        <Loading what="channels" />
      ) : channels.isError ? (
        <FormError error={channels.error} />
      ) : (
        <>
          {channels.data.items.length === 0 ? (
            <EmptyState title="No notification channel yet.">
              <p>
                Add a webhook, email or Slack channel to hear about failed deployments, approvals
                and more (or <code>slipway notifications create</code>).
              </p>
            </EmptyState>
          ) : (
            channels.data.items.map((c) => <ChannelCard key={c.channelId} channel={c} />)
          )}
          <Deliveries channels={channels.data.items} />
        </>
      )}
      <Drains />
    </Page>
  );
}
