/**
 * The layers, top to bottom: a folder may import its own layer's folders listed after it and
 * anything in the layers below, never above. `npm test` runs this check (`npm run deps`).
 * Within a layer the order of the folders is the order in which they may depend on each other.
 */
const LAYERS = [
  { name: 'app', folders: ['src/main.ts', 'src/worker.ts', 'src/catch-up.ts', 'src/app'] },
  {
    name: 'surfaces',
    folders: ['src/api-v1', 'src/mcp', 'src/web', 'src/http', 'src/rpc', 'src/cli'],
  },
  {
    name: 'contexts',
    folders: [
      'src/health',
      'src/drains',
      'src/runner',
      'src/notifications',
      'src/deployments',
      'src/projects',
      'src/identity',
      'src/audit',
      'src/access',
      'src/security',
    ],
  },
  { name: 'read models', folders: ['projections'] },
  { name: 'write path', folders: ['src/storage', 'src/privacy'] },
  { name: 'published language and kernel', folders: ['src/events', 'src/kernel'] },
  {
    name: 'ports and adapters',
    folders: ['src/secrets', 'src/mail', 'src/eventstore', 'src/readstore'],
  },
  { name: 'foundation', folders: ['src/config', 'src/common'] },
];

/** Tests and test helpers may reach across layers. */
const TESTS = '(\\.spec\\.ts$|/testing/)';

const ordered = LAYERS.flatMap((layer) => layer.folders);
const pattern = (folders) => `^(${folders.map((f) => f.replace(/\./g, '\\.')).join('|')})($|/)`;

/** Each folder may not import any folder listed before it. */
const upward = ordered.slice(1).map((folder, i) => ({
  name: `no-upward-import-from-${folder.replace(/[/.]/g, '-')}`,
  severity: 'error',
  comment: `${folder} sits below ${ordered.slice(0, i + 1).join(', ')}; see .dependency-cruiser.cjs`,
  from: { path: pattern([folder]), pathNot: TESTS },
  to: { path: pattern(ordered.slice(0, i + 1)) },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other in a circle (tests aside).',
      from: { pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: 'client-speaks-the-contract-only',
      severity: 'error',
      comment:
        'The typed client (client/) ships alone: it reads the server only as types (the contract and the declarations), never its code.',
      from: { path: '^client/', pathNot: TESTS },
      to: { path: '^(src|projections|contract)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unplaced-folder',
      severity: 'error',
      comment: 'Every source folder has a place in LAYERS.',
      from: { pathNot: TESTS },
      to: { path: '^(src|projections)/', pathNot: [pattern(ordered), TESTS] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
