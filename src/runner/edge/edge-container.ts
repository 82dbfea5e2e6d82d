/** The edge proxy's container on every server. */
export const EDGE_CONTAINER = 'slipway-edge';
