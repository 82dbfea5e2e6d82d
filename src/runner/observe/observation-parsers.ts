/** One container of a service as `docker compose ps` and `docker inspect` describe it. */
export interface ContainerStatus {
  name: string;
  service: string;
  state: string;
  health: string | null;
  exitCode: number | null;
  restarts: number | null;
  publishedPorts: { url: string; targetPort: number; publishedPort: number; protocol: string }[];
  image: string;
  imageDigest: string | null;
  startedAt: string | null;
}

export interface ContainerStats {
  name: string;
  cpuPercent: number | null;
  memoryUsage: string;
  memoryPercent: number | null;
  networkIo: string;
  blockIo: string;
  pids: number | null;
}

type Json = Record<string, unknown>;

/** JSON objects from output that is a JSON array or one object per line (both compose styles). */
export function jsonObjects(stdout: string[]): Json[] {
  const text = stdout.join('\n').trim();
  if (!text) return [];
  if (text.startsWith('[')) {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as Json[]) : [];
  }
  return stdout
    .map((l) => l.trim())
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Json);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const percent = (v: unknown): number | null => {
  const n = Number.parseFloat(str(v).replace('%', ''));
  return Number.isFinite(n) ? n : null;
};

/** `docker compose ps --format json` rows joined with `docker inspect` of the same containers. */
export function containerStatuses(ps: Json[], inspected: Json[]): ContainerStatus[] {
  const byName = new Map(inspected.map((c) => [str(c.Name).replace(/^\//, ''), c]));
  return ps.map((row) => {
    const name = str(row.Name);
    const details = byName.get(name);
    const state = (details?.State ?? {}) as Json;
    const publishers = Array.isArray(row.Publishers) ? (row.Publishers as Json[]) : [];
    return {
      name,
      service: str(row.Service),
      state: str(row.State),
      health: str(row.Health) || null,
      exitCode: num(row.ExitCode),
      restarts: num(details?.RestartCount),
      publishedPorts: publishers
        .filter((p) => num(p.PublishedPort))
        .map((p) => ({
          url: str(p.URL),
          targetPort: num(p.TargetPort) ?? 0,
          publishedPort: num(p.PublishedPort) ?? 0,
          protocol: str(p.Protocol),
        })),
      image: str(row.Image),
      imageDigest: str(details?.Image) || null,
      startedAt: str(state.StartedAt) || null,
    };
  });
}

/** `docker stats --no-stream --format '{{json .}}'` rows. */
export function containerStats(rows: Json[]): ContainerStats[] {
  return rows.map((r) => ({
    name: str(r.Name),
    cpuPercent: percent(r.CPUPerc),
    memoryUsage: str(r.MemUsage),
    memoryPercent: percent(r.MemPerc),
    networkIo: str(r.NetIO),
    blockIo: str(r.BlockIO),
    pids: Number.isFinite(Number.parseInt(str(r.PIDs), 10))
      ? Number.parseInt(str(r.PIDs), 10)
      : null,
  }));
}

/** Kibibytes available from `df -Pk` output (the second line's fourth column). */
export function diskFreeKib(stdout: string[]): number | null {
  const fields = (stdout[1] ?? '').trim().split(/\s+/);
  const kib = Number.parseInt(fields[3] ?? '', 10);
  return Number.isFinite(kib) ? kib : null;
}
