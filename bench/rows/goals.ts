/** The goals the table checks, from the issues that set them. */
export const GOALS = {
  triggersOneService: 300,
  triggersOneServiceP99Ms: 100,
  triggersTenServices: 600,
  idleRssMb: 100,
  loadedRssMb: 160,
  rebuildEventsPerSecond: 50_000,
  logLineP99Ms: 50,
  edgeFailedRequests: 0,
  edgeRequests: 10_000,
  edgeCutoverMs: 1000,
  /** A push of a small image serves within this many times a prebuilt image's deploy. */
  gitPushVsImageDeploy: 2,
};
