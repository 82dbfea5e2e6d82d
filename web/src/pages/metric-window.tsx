import { useId } from 'react';
import type { ChartPoint } from '../components/metric-chart';

/** The windows a metrics section shows, in hours. */
export const WINDOWS = [
  { hours: 1, label: '1h', long: 'the last hour' },
  { hours: 6, label: '6h', long: 'the last 6 hours' },
  { hours: 24, label: '24h', long: 'the last 24 hours' },
  { hours: 168, label: '7d', long: 'the last 7 days' },
] as const;

export const DEFAULT_HOURS = 6;

/** The window in words: "the last 6 hours". */
export const windowText = (hours: number) =>
  WINDOWS.find((w) => w.hours === hours)?.long ?? `the last ${hours} hours`;

/** The metrics are read again this often (the runner reads servers every minute by default). */
export const METRICS_POLL_MS = 60_000;

/** The window, picked among a few (radio buttons drawn as one segmented control). */
export function WindowPicker({
  hours,
  onChange,
}: {
  hours: number;
  onChange: (hours: number) => void;
}) {
  const name = useId();
  return (
    <div className="window-picker" role="radiogroup" aria-label="Window">
      {WINDOWS.map((w) => (
        <label
          key={w.hours}
          className={hours === w.hours ? 'picked' : undefined}
          title={`Show ${w.long}`}
        >
          <input
            type="radio"
            name={name}
            value={w.hours}
            checked={hours === w.hours}
            onChange={() => onChange(w.hours)}
          />
          {w.label}
        </label>
      ))}
    </div>
  );
}

type Values = Record<string, number | null | undefined>;

/** One metric of a history's points, for a chart: with the hour's peak when read hourly. */
export function pointsOf(
  points: { at: string; values: Values; max: Values }[],
  metric: string,
  hourly: boolean,
): ChartPoint[] {
  return points.map((p) => ({
    at: p.at,
    value: p.values[metric],
    peak: hourly ? p.max[metric] : undefined,
  }));
}

/** The latest reading of a metric in a history, or null. */
export function latestOf(points: { values: Values }[], metric: string): number | null {
  for (let i = points.length - 1; i >= 0; i--) {
    const value = points[i]!.values[metric];
    if (value !== null && value !== undefined) return value;
  }
  return null;
}
