import type { Projection } from './projection.js';

/** Every projection the service maintains. Bounded contexts add theirs here. */
export const applicationProjections: Projection[] = [];
