/**
 * What the write path needs of the read models: to answer once those that events of these
 * types change include everything up to `position` (read-your-writes). The projection runner
 * provides it; the write path does not depend on how.
 */
export interface ReadModels {
  caughtUp(position: bigint, eventTypes: ReadonlySet<string>): Promise<void>;
}

export const READ_MODELS = Symbol('READ_MODELS');
