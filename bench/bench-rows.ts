/**
 * The figures of each benchmark as rows of the Benchmarks table: the result, and what it is
 * compared with in the same run (a bare server, the first deployments, reading without
 * hashing) or a goal of the issue that asked for it, with the ratio.
 */
export { GOALS } from './rows/goals.js';
export {
  commandLanePostgresRows,
  commandLaneRows,
  drainsRows,
  healthRows,
  readLaneRows,
} from './rows/http-rows.js';
export {
  appendRows,
  auditRows,
  composeParseRows,
  metricsRows,
  projectionRebuildRows,
  runnerStepsRows,
} from './rows/store-rows.js';
export {
  dashboardRows,
  edgeDeploysRows,
  gitPushRows,
  logStreamRows,
  loginRows,
} from './rows/client-rows.js';
