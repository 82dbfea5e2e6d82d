import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface DailyCounts {
  date: string;
  succeeded: number;
  failed: number;
}

const css = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/**
 * Deployments per day, succeeded and failed, as stacked bars (uPlot, on a canvas; loaded only
 * with the overview's metrics). The numbers are also in the table beside it, for screen readers.
 */
export default function DeliveryChart({ daily }: { daily: DailyCounts[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // One bar per UTC day: x is the day's index, labelled with its date (MM-DD).
    const xs = daily.map((_d, i) => i);
    const label = (i: number) => daily[Math.round(i)]?.date.slice(5) ?? '';
    const ok = daily.map((d) => d.succeeded);
    // Stacked: the failed bar starts where the succeeded one ends.
    const total = daily.map((d) => d.succeeded + d.failed);
    const bars = uPlot.paths.bars!({ size: [0.7, 40] });
    const okColour = css('--ok', '#166534');
    const badColour = css('--bad', '#991b1b');
    const text = css('--muted', '#5b6675');
    const grid = css('--border', '#d9dee5');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const chart = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 180,
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: false, range: [-0.5, daily.length - 0.5] },
          y: { range: (_u, _min, max) => [0, Math.max(2, max)] },
        },
        axes: [
          {
            ...axis,
            grid: { show: false },
            incrs: [1, 2, 7, 14],
            space: 44,
            values: (_u, splits) => splits.map(label),
          },
          { ...axis, size: 36, incrs: [1, 2, 5, 10, 20, 50, 100] },
        ],
        series: [
          {},
          {
            label: 'failed',
            fill: badColour,
            stroke: badColour,
            paths: bars,
            points: { show: false },
          },
          {
            label: 'succeeded',
            fill: okColour,
            stroke: okColour,
            paths: bars,
            points: { show: false },
          },
        ],
      },
      [xs, total, ok],
      el,
    );
    const resize = () => chart.setSize({ width: el.clientWidth, height: 180 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [daily]);
  const sum = daily.reduce((n, d) => n + d.succeeded + d.failed, 0);
  return (
    <div
      ref={box}
      className="delivery-chart"
      role="img"
      aria-label={`Deployments per day over ${daily.length} days: ${sum} finished`}
    />
  );
}
