import { jsonObjects } from '../observe/observation-parsers.js';

/** One server's reading: null where the server did not say. */
export interface ServerReading {
  cpuPercent: number | null;
  memoryPercent: number | null;
  memoryUsedBytes: number | null;
  memoryTotalBytes: number | null;
  diskPercent: number | null;
  diskUsedBytes: number | null;
  /** Images, containers, volumes and build cache, as `docker system df` counts them. */
  dockerDiskBytes: number | null;
}

/** One container's reading, named by its compose project and service. */
export interface ContainerReading {
  name: string;
  project: string;
  composeService: string;
  state: string;
  /** `healthy`, `unhealthy`, `starting`, or null without a health check. */
  health: string | null;
  restarts: number;
  cpuPercent: number | null;
  memoryPercent: number | null;
  memoryBytes: number | null;
}

type Json = Record<string, unknown>;

/** Sections of the server script's output, each after a `==<name>` line. */
export const SECTION = '==';

/**
 * What one SSH command prints about a server: `/proc/stat`'s cpu line twice a second apart
 * (usage between the two), `/proc/meminfo`, `df` of the runner's directory (or `/`) and
 * `docker system df`. `$1` is the runner's directory.
 */
export const SERVER_SCRIPT = [
  `echo ${SECTION}stat; head -n1 /proc/stat; sleep 1; head -n1 /proc/stat`,
  `echo ${SECTION}mem; grep -E '^(MemTotal|MemAvailable):' /proc/meminfo`,
  `echo ${SECTION}df; df -Pk "$1" 2>/dev/null || df -Pk /`,
  `echo ${SECTION}docker; docker system df --format '{{json .}}' || true`,
].join('; ');

function sections(lines: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of lines) {
    if (line.startsWith(SECTION)) out.set(line.slice(SECTION.length).trim(), (current = []));
    else current?.push(line);
  }
  return out;
}

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);
const round = (n: number | null): number | null => (n === null ? null : Math.round(n * 100) / 100);

/** Busy share between two `cpu  user nice system idle iowait irq softirq steal` lines. */
export function cpuPercent(first: string | undefined, second: string | undefined): number | null {
  const fields = (line: string | undefined) =>
    (line ?? '')
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map((f) => Number.parseInt(f, 10));
  const a = fields(first);
  const b = fields(second);
  if (a.length < 4 || b.length < 4 || [...a, ...b].some((n) => !Number.isFinite(n))) return null;
  const idle = (f: number[]) => f[3]! + (f[4] ?? 0);
  const total = (f: number[]) => f.reduce((s, n) => s + n, 0);
  const spent = total(b) - total(a);
  if (spent <= 0) return null;
  return round(Math.min(100, Math.max(0, (100 * (spent - (idle(b) - idle(a)))) / spent)));
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** `1.5GB`, `12.3MiB`, `0B` as Docker prints sizes, in bytes; null if not a size. */
export function sizeBytes(text: string): number | null {
  const match = /^\s*([\d.]+)\s*([kmgt]?i?b)\s*$/i.exec(text);
  if (!match) return null;
  const unit = SIZE_UNITS[match[2]!.toLowerCase()];
  const n = Number.parseFloat(match[1]!);
  return unit === undefined || !Number.isFinite(n) ? null : Math.round(n * unit);
}

/** The server script's output, read. */
export function serverReading(lines: string[]): ServerReading {
  const parts = sections(lines);
  const stat = parts.get('stat') ?? [];
  const mem = new Map(
    (parts.get('mem') ?? []).map((l) => {
      const [key, value] = l.split(':');
      return [key!.trim(), Number.parseInt((value ?? '').trim(), 10) * 1024] as const;
    }),
  );
  const total = finite(mem.get('MemTotal') ?? Number.NaN);
  const available = finite(mem.get('MemAvailable') ?? Number.NaN);
  const used = total !== null && available !== null ? total - available : null;
  const df = ((parts.get('df') ?? [])[1] ?? '').trim().split(/\s+/);
  const dfTotal = finite(Number.parseInt(df[1] ?? '', 10));
  const dfUsed = finite(Number.parseInt(df[2] ?? '', 10));
  const dfFree = finite(Number.parseInt(df[3] ?? '', 10));
  const docker = jsonObjects(parts.get('docker') ?? []).map((row) =>
    sizeBytes(typeof row.Size === 'string' ? row.Size : ''),
  );
  return {
    cpuPercent: cpuPercent(stat[0], stat[1]),
    memoryPercent: used !== null && total ? round((100 * used) / total) : null,
    memoryUsedBytes: used,
    memoryTotalBytes: total,
    diskPercent:
      dfUsed !== null && dfFree !== null && dfUsed + dfFree > 0
        ? round((100 * dfUsed) / (dfUsed + dfFree))
        : null,
    diskUsedBytes: dfUsed !== null && dfTotal !== null ? dfUsed * 1024 : null,
    dockerDiskBytes:
      docker.length && docker.every((n) => n !== null)
        ? docker.reduce<number>((s, n) => s + n!, 0)
        : null,
  };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const percent = (v: unknown): number | null =>
  round(finite(Number.parseFloat(str(v).replace('%', ''))));

/**
 * `docker inspect` of a server's compose containers joined with `docker stats --no-stream` of
 * the running ones (by name): state, health and restart count for every container, usage for
 * those that run.
 */
export function containerReadings(inspected: Json[], stats: Json[]): ContainerReading[] {
  const usage = new Map(stats.map((row) => [str(row.Name), row]));
  return inspected.map((c) => {
    const name = str(c.Name).replace(/^\//, '');
    const config = (c.Config ?? {}) as Json;
    const labels = (config.Labels ?? {}) as Json;
    const state = (c.State ?? {}) as Json;
    const health = (state.Health ?? null) as Json | null;
    const row = usage.get(name);
    const restarts = typeof c.RestartCount === 'number' ? c.RestartCount : 0;
    return {
      name,
      project: str(labels['com.docker.compose.project']),
      composeService: str(labels['com.docker.compose.service']),
      state: str(state.Status),
      health: health ? str(health.Status) || null : null,
      restarts,
      cpuPercent: row ? percent(row.CPUPerc) : null,
      memoryPercent: row ? percent(row.MemPerc) : null,
      memoryBytes: row ? sizeBytes(str(row.MemUsage).split('/')[0] ?? '') : null,
    };
  });
}
