import { performance } from 'node:perf_hooks';
import { parse } from 'yaml';
import { parseBoundedYaml } from '../src/common/bounded-yaml.js';

export interface ComposeParseRow {
  keys: number;
  bytes: number;
  /** Slipway's parser with its limits lifted, to show the shape of the curve. */
  boundedMs: number;
  /** The library's defaults (`uniqueKeys: true`), as Slipway parsed before; null: skipped. */
  libraryDefaultMs: number | null;
}

const UNLIMITED = {
  maxChars: Infinity,
  maxTokens: Infinity,
  maxNodes: Infinity,
  maxDepth: 64,
  maxAliases: 100,
};

/** A compose file with `keys` extra top-level keys: the shape of the reported stall. */
export function manyKeys(keys: number): string {
  const lines = ['services:', '  web:', '    image: nginx:1.27'];
  for (let i = 0; i < keys; i++) lines.push(`x-k${i}: ${i}`);
  return `${lines.join('\n')}\n`;
}

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/** Keys vs time: linear for the bounded parser, quadratic for the library's default check. */
export function benchComposeParse(
  sizes = [5_000, 10_000, 20_000, 40_000, 80_000],
  defaultUpTo = 20_000,
): ComposeParseRow[] {
  parseBoundedYaml(manyKeys(1_000), 'compose', UNLIMITED); // warm up
  return sizes.map((keys) => {
    const text = manyKeys(keys);
    return {
      keys,
      bytes: Buffer.byteLength(text),
      boundedMs: timed(() => parseBoundedYaml(text, 'compose', UNLIMITED)),
      libraryDefaultMs:
        keys <= defaultUpTo
          ? timed(() => parse(text, { uniqueKeys: true, logLevel: 'error' }))
          : null,
    };
  });
}
