import type { Projection } from '../../projections/projection.js';

/** The projections the runner maintains (the application's own, plus any a test adds). */
export const PROJECTIONS = Symbol('PROJECTIONS');
export type ProjectionList = Projection[];
