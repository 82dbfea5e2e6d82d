import { useLayoutEffect, useRef, useState } from 'react';
import { formatMetric, type MetricUnit } from './metric-format';

/** One reading (or an hour's mean, with the hour's highest as `peak`); null where not read. */
export interface ChartPoint {
  at: string;
  value: number | null | undefined;
  peak?: number | null;
}

/** A rule's level, drawn as a dashed line across the chart. */
export interface ChartThreshold {
  level: 'warning' | 'critical';
  value: number;
}

interface Props {
  title: string;
  unit: MetricUnit;
  points: ChartPoint[];
  /** The window shown: from `from` to `to` (default now), whatever the points cover. */
  from: string;
  to?: string;
  thresholds?: ChartThreshold[];
}

const HEIGHT = 150;
const PAD = { top: 8, right: 10, bottom: 22, left: 48 };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIME_STEPS = [5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080].map(
  (m) => m * MINUTE,
);
const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
/** A time for the label: the clock's alone within a day of `end`, else with the date. */
const timeText = (t: number, end: number) =>
  end - t < 20 * HOUR ? clock.format(t) : `${day.format(t)}, ${clock.format(t)}`;

/** Ticks of a value axis: 0 to a round top at or above `max`, in steps of 1, 2, 2.5 or 5 × 10ⁿ. */
function valueTicks(unit: MetricUnit, max: number): number[] {
  if (unit === 'percent') return [0, 25, 50, 75, 100];
  const base =
    unit === 'bytes' ? 1024 ** Math.max(0, Math.floor(Math.log(max || 1) / Math.log(1024))) : 1;
  const rough = Math.max(max / base, 1) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= rough) ?? 10) * power * base;
  const top = Math.max(step, Math.ceil(max / step) * step);
  return Array.from({ length: Math.round(top / step) + 1 }, (_v, i) => i * step);
}

/** Ticks of the time axis: round local times, at most one per 80 pixels. */
function timeTicks(from: number, to: number, width: number): { at: number; label: string }[] {
  const most = Math.max(2, Math.floor(width / 80));
  const step = TIME_STEPS.find((s) => (to - from) / s <= most) ?? TIME_STEPS.at(-1)!;
  const offset = new Date(from).getTimezoneOffset() * MINUTE;
  const ticks = [];
  for (let t = Math.ceil((from - offset) / step) * step + offset; t <= to; t += step) {
    ticks.push({ at: t, label: step >= DAY ? day.format(t) : clock.format(t) });
  }
  return ticks;
}

/** Unbroken runs of readings: a run ends at a missing reading or a gap much longer than usual. */
function runsOf(points: { t: number; v: number | null }[]): { t: number; v: number }[][] {
  const gaps = points
    .slice(1)
    .map((p, i) => p.t - points[i]!.t)
    .sort((a, b) => a - b);
  const usual = gaps[Math.floor(gaps.length / 2)] ?? HOUR;
  const longest = Math.max(usual * 2.5, 2 * MINUTE);
  const runs: { t: number; v: number }[][] = [];
  let run: { t: number; v: number }[] = [];
  let last = -Infinity;
  for (const { t, v } of points) {
    if (v === null || t - last > longest) {
      if (run.length) runs.push(run);
      run = [];
    }
    if (v !== null) run.push({ t, v });
    last = t;
  }
  if (run.length) runs.push(run);
  return runs;
}

function useWidth() {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(320);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth || 320);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth || 320));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [box, width] as const;
}

/**
 * One metric over a window of time as a line (SVG, no library): percentages on 0-100, bytes and
 * counts from 0 to a round top in readable units; hourly peaks dashed when given, and the levels
 * of alert rules as lines across. The latest value and the highest are in its caption and label.
 */
export function MetricChart({ title, unit, points, from, to, thresholds = [] }: Props) {
  const [box, width] = useWidth();
  const start = Date.parse(from);
  const series = points
    .map((p) => ({ t: Date.parse(p.at), v: p.value ?? null, peak: p.peak ?? null }))
    .filter((p) => p.t >= start)
    .sort((a, b) => a.t - b.t);
  // Now, or the last reading if this clock is behind the server's.
  const end = to ? Date.parse(to) : Math.max(Date.now(), series.at(-1)?.t ?? 0);
  const read = series.filter((p) => p.v !== null);
  const latest = read.at(-1);
  const highest = Math.max(...read.map((p) => Math.max(p.v!, p.peak ?? p.v!)));
  const count = `${read.length} reading${read.length === 1 ? '' : 's'}`;
  const label = latest
    ? `${title}: latest ${formatMetric(latest.v!, unit)} at ${timeText(latest.t, end)}, highest ${formatMetric(highest, unit)}, ${count} since ${timeText(start, end)}`
    : `${title}: no readings in this window`;

  const plotW = Math.max(width - PAD.left - PAD.right, 40);
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const yTicks = valueTicks(unit, Math.max(highest, ...thresholds.map((l) => l.value), 0));
  const top = yTicks.at(-1)!;
  const x = (t: number) => PAD.left + ((t - start) / Math.max(end - start, 1)) * plotW;
  const y = (v: number) => PAD.top + plotH - (Math.min(Math.max(v, 0), top) / top) * plotH;
  const line = (run: { t: number; v: number }[]) =>
    run.map((p, i) => `${i ? 'L' : 'M'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join('');
  const runs = runsOf(series);
  const peaks = runsOf(series.map((p) => ({ t: p.t, v: p.peak })));
  const hasPeaks = series.some((p) => p.peak !== null && p.peak !== p.v);
  const sparse = read.length <= plotW / 8;
  const baseline = y(0).toFixed(1);

  return (
    <figure className="metric-chart">
      <figcaption>
        <span className="metric-chart-title">{title}</span>
        {latest && <span className="metric-chart-latest">{formatMetric(latest.v!, unit)}</span>}
        {latest && (
          <span className="muted small">
            highest {formatMetric(highest, unit)}
            {hasPeaks && ' · hourly means, peaks dashed'}
          </span>
        )}
      </figcaption>
      <div ref={box} className="metric-chart-plot">
        {read.length === 0 ? (
          <p className="metric-chart-empty" role="img" aria-label={label}>
            No readings in this window.
          </p>
        ) : (
          <svg
            width={width}
            height={HEIGHT}
            viewBox={`0 0 ${width} ${HEIGHT}`}
            role="img"
            aria-label={label}
            data-points={read.length}
          >
            <g className="chart-grid" aria-hidden="true">
              {yTicks.map((v) => (
                <g key={v}>
                  <line x1={PAD.left} x2={PAD.left + plotW} y1={y(v)} y2={y(v)} />
                  <text x={PAD.left - 6} y={y(v)} dy="0.32em" textAnchor="end">
                    {formatMetric(v, unit)}
                  </text>
                </g>
              ))}
              {timeTicks(start, end, plotW).map(({ at, label: text }) => (
                <text key={at} x={x(at)} y={HEIGHT - 6} textAnchor="middle">
                  {text}
                </text>
              ))}
            </g>
            {runs.map((run) => (
              <path
                key={`area-${run[0]!.t}`}
                className="chart-area"
                d={`${line(run)}L${x(run.at(-1)!.t).toFixed(1)},${baseline}L${x(run[0]!.t).toFixed(1)},${baseline}Z`}
              />
            ))}
            {hasPeaks &&
              peaks.map((run) =>
                // A peak with no neighbour is a point; a path of one point draws nothing.
                run.length === 1 ? (
                  <circle
                    key={`peak-${run[0]!.t}`}
                    className="chart-peak chart-peak-point"
                    cx={x(run[0]!.t)}
                    cy={y(run[0]!.v)}
                    r={3}
                  />
                ) : (
                  <path key={`peak-${run[0]!.t}`} className="chart-peak" d={line(run)} />
                ),
              )}
            {runs.map((run) => (
              <path key={`line-${run[0]!.t}`} className="chart-line" d={line(run)} />
            ))}
            {read
              .filter(
                (p, i) =>
                  sparse ||
                  i === read.length - 1 ||
                  runs.some((r) => r.length === 1 && r[0]!.t === p.t),
              )
              .map((p) => (
                <circle key={p.t} className="chart-dot" cx={x(p.t)} cy={y(p.v!)} r={2.5} />
              ))}
            {thresholds.map((l) => (
              <g key={l.level} className={`chart-threshold chart-${l.level}`}>
                <line x1={PAD.left} x2={PAD.left + plotW} y1={y(l.value)} y2={y(l.value)} />
                <text x={PAD.left + 4} y={y(l.value) - 3}>
                  {l.level} {formatMetric(l.value, unit)}
                </text>
              </g>
            ))}
          </svg>
        )}
      </div>
    </figure>
  );
}
