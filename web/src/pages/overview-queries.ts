import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { query } from '../api/client';

/** How often the overview refreshes what it shows, besides the live read-model events. */
export const REFRESH_MS = 5_000;

/** What the overview reads: the same options where it reads them and where they are prefetched. */
export const overviewQueries = {
  health: queryOptions({
    queryKey: ['health'],
    queryFn: () => query('health'),
    refetchInterval: REFRESH_MS,
  }),
  recent: queryOptions({
    queryKey: ['recentDeployments', { limit: 8 }],
    queryFn: () => query('recentDeployments', { limit: 8 }),
    refetchInterval: REFRESH_MS,
  }),
  approvals: queryOptions({
    queryKey: ['approvalQueue', 'pending'],
    queryFn: () => query('approvalQueue', { status: 'pending', limit: 20 }),
    refetchInterval: REFRESH_MS,
  }),
  metrics: (days: number) =>
    queryOptions({
      queryKey: ['deliveryMetrics', days],
      queryFn: () => query('deliveryMetrics', { windowDays: days }),
    }),
};

/** The default window of the delivery metrics panel, in days. */
export const METRICS_DAYS = 30;

/**
 * Asks for everything the overview shows at once, beside `viewer`, rather than after it: a
 * visit that opens on the overview waits for one round trip instead of two.
 */
export function prefetchOverview(client: QueryClient): void {
  for (const options of [
    overviewQueries.health,
    overviewQueries.recent,
    overviewQueries.approvals,
    overviewQueries.metrics(METRICS_DAYS),
  ])
    void client.prefetchQuery(options as Parameters<QueryClient['prefetchQuery']>[0]);
}
