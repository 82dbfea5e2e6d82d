import type { ComposeCapability, ComposeViolation } from './compose-capabilities.js';
import { hostPathCapabilities } from './host-paths.js';

export type ComposeMap = Record<string, unknown>;

export const isMap = (v: unknown): v is ComposeMap =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value as a list: Compose accepts one string where it accepts a list of them. */
export const listOf = (v: unknown): unknown[] =>
  Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];

/** `true` as Compose reads it: anything but absent, false or "false" counts as set. */
export function isSet(value: unknown): boolean {
  return (
    value !== undefined &&
    value !== null &&
    value !== false &&
    String(value).toLowerCase() !== 'false'
  );
}

/** What a document asks for, gathered while its keys are judged. */
export class Findings {
  readonly list: ComposeViolation[] = [];
  /** Paths of keys the Compose specification does not have (Compose refuses them too). */
  readonly unknownKeys: string[] = [];
  constructor(private readonly extraSensitive: readonly string[]) {}

  add(capability: ComposeCapability, path: string, message: string): void {
    this.list.push({ capability, path, message });
  }

  /** A host path the container (or the build) reads or mounts. */
  hostPath(raw: unknown, path: string): void {
    if (typeof raw !== 'string') return;
    for (const capability of hostPathCapabilities(raw, this.extraSensitive))
      this.add(capability, path, `mounts or reads the host path ${JSON.stringify(raw)}`);
  }
}
