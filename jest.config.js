// Jest runs in native ESM mode because NestJS 12 ships as ES modules only.
// @swc/jest compiles TypeScript with legacy decorators and decorator metadata, as tsc does.
export default {
  testEnvironment: 'node',
  roots: [
    '<rootDir>/src',
    '<rootDir>/projections',
    '<rootDir>/contract',
    '<rootDir>/e2e',
    '<rootDir>/web',
    // Only the table's renderer has a spec there; the benchmarks themselves are *.bench.ts.
    '<rootDir>/bench',
  ],
  testMatch: ['**/*.spec.ts', '**/*.e2e.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: {
            legacyDecorator: true,
            decoratorMetadata: true,
            useDefineForClassFields: false,
          },
          target: 'es2022',
        },
        module: { type: 'es6' },
      },
    ],
  },
  testTimeout: 60000,
  // One test file at a time, each in a fresh worker process: modules loaded through the VM (ESM
  // mode) are never all released, so one process running every file grows towards its heap limit
  // and spends most of its time collecting garbage (files taking 30 times as long as alone).
  maxWorkers: 1,
  workerIdleMemoryLimit: 0,
  // The real Docker engine: started by the first suite that needs it, stopped by pid at the end.
  globalSetup: '<rootDir>/e2e/support/docker-engine.global-setup.mjs',
  globalTeardown: '<rootDir>/e2e/support/docker-engine.global-teardown.mjs',
};
