// The contract's types, as the typed client package (client/) publishes them.
export * from '../../../client/src/contract.js';
