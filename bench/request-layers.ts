import { readFileSync } from 'node:fs';

/**
 * Where a request's CPU time goes, from a V8 CPU profile (`node --cpu-prof`) of the server under
 * load: each sample's own function (self time) put in the layer its file belongs to, counted
 * only between `fromUs` and `toUs` (the load's window, on the system's monotonic clock, which
 * the profile's timestamps use too), so start-up is left out.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Layers in the order a request meets them; the first whose test matches a file wins. */
const LAYERS: [string, (url: string, fn: string) => boolean][] = [
  ['garbage collection', (_u, fn) => fn === '(garbage collector)'],
  [
    'Node HTTP and sockets',
    (u, fn) =>
      /^node:(_http|net|internal\/(streams|stream_base|http))/.test(u) || (!u && fn === 'writev'),
  ],
  [
    'Express and its middleware packages',
    (u) =>
      /node_modules\/(express|router|body-parser|parseurl|raw-body|type-is|content-type|finalhandler|send|serve-static|express-static-gzip|path-to-regexp|cookie|qs|on-finished|mime)/.test(
        u,
      ),
  ],
  [
    'front door (headers, request id, host, cross-site, body)',
    (u) => /node_modules\/helmet|dist\/src\/(http|web)\//.test(u),
  ],
  [
    'Nest routing, guards and interceptors',
    (u) => /node_modules\/(@nestjs|rxjs|reflect-metadata)/.test(u),
  ],
  ['credentials and the guard', (u) => /dist\/src\/access\//.test(u)],
  [
    'validation',
    (u) =>
      /node_modules\/(class-validator|class-transformer|validator)|dist\/src\/kernel\/input-validation/.test(
        u,
      ),
  ],
  ['read store', (u) => /dist\/src\/readstore\/|node_modules\/better-sqlite3/.test(u)],
  ['answer serialization', (u) => /node_modules\/superjson/.test(u)],
  ['procedure pipeline and handler', (u) => /dist\/(src|projections)\//.test(u)],
];
const OTHER = 'other (V8, timers, promises)';

export interface LayerShare {
  layer: string;
  /** Of the CPU time spent in the window (idle excluded). */
  share: number;
  /** CPU microseconds per request in this layer. */
  microsPerRequest: number;
}

export function requestLayers(
  profileFile: string,
  fromUs: number,
  toUs: number,
  requests: number,
): LayerShare[] {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const spent = new Map<string, number>();
  let at = profile.startTime;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < fromUs || at > toUs) return;
    const { url, functionName } = nodes.get(id)!.callFrame;
    if (functionName === '(idle)') return;
    const layer = LAYERS.find(([, test]) => test(url, functionName))?.[0] ?? OTHER;
    spent.set(layer, (spent.get(layer) ?? 0) + delta);
    busy += delta;
  });
  return [...LAYERS.map(([name]) => name), OTHER]
    .map((layer) => ({
      layer,
      share: busy ? (spent.get(layer) ?? 0) / busy : 0,
      microsPerRequest: requests ? (spent.get(layer) ?? 0) / requests : 0,
    }))
    .filter((l) => l.share > 0);
}

/** The system's monotonic clock in microseconds: the clock of a CPU profile's timestamps. */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);
