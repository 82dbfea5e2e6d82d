export type { Answer } from './answers.js';
export * from './contract.js';
export {
  SlipwayClient,
  type InputArgs,
  type MutateArgs,
  type MutationName,
  type MutationOptions,
  type QueryName,
  type SlipwayClientOptions,
} from './slipway-client.js';
export {
  errorFromAnswer,
  networkError,
  SlipwayError,
  type FieldIssue,
  type SlipwayErrorCode,
} from './slipway-error.js';
