/**
 * The import rules of ARCHITECTURE.md §1, checked by `npm run deps` (part of `npm run check`): the server is a stack
 * of layers (platform -> integrations -> kernel -> the modules, lowest first -> modules.ts -> app.ts -> main), a file
 * imports only its own layer or a lower one, and nothing imports in a circle; the web app's features never import each
 * other and lib/ and components/ never import a feature. Type-only imports count (tsPreCompilationDeps).
 */
const SERVER = '^apps/server/src/';

/** The server's domain modules, lowest first; a module imports only modules of a lower row, never a peer. */
const MODULE_STACK = [
  ['tenants'],
  ['settings'],
  ['users'],
  ['auth', 'branding', 'contacts', 'farewells', 'notifications', 'queues', 'quick-messages', 'reasons', 'teams'],
  ['kanban', 'tags'],
  ['channels'],
  ['tickets'],
  ['messages'],
  ['notes'],
  ['campaigns', 'chatbot', 'evaluations', 'protocols', 'schedules'],
  ['inbox'],
];

const modulePath = (names) => `${SERVER}modules/(${names.join('|')})/`;

/** Every server layer, lowest first, as a path pattern. */
const LAYERS = [
  { name: 'platform', path: `${SERVER}(platform/|config\\.ts$)` },
  { name: 'integrations', path: `${SERVER}integrations/` },
  { name: 'kernel', path: `${SERVER}kernel/` },
  ...MODULE_STACK.map((row) => ({ name: row.join(', '), path: modulePath(row), row })),
  { name: 'modules.ts', path: `${SERVER}modules\\.ts$` },
  { name: 'app.ts', path: `${SERVER}app\\.ts$` },
  { name: 'main', path: `${SERVER}(main|bootstrap)\\.ts$` },
];

const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: 'server-upward-import',
  comment: `${layer.name} imports a layer above it (ARCHITECTURE.md §1): make the call a port or an event`,
  severity: 'error',
  from: { path: layer.path, pathNot: '\\.test\\.ts$' },
  to: { path: LAYERS.slice(index + 1).map((above) => above.path), dependencyTypesNot: ['npm', 'core'] },
}));

const peers = MODULE_STACK.flatMap((row) =>
  row.length < 2
    ? []
    : row.map((name) => ({
        name: 'server-peer-import',
        comment: `${name} imports a module of its own row of the stack (ARCHITECTURE.md §1)`,
        severity: 'error',
        from: { path: modulePath([name]), pathNot: '\\.test\\.ts$' },
        to: { path: modulePath(row.filter((other) => other !== name)) },
      })),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle: one of its arrows must become a port, an event or moved code',
      severity: 'error',
      from: { path: '^(apps/server/src|apps/web/src|packages/shared/src)/' },
      to: { circular: true },
    },
    ...upward,
    ...peers,
    {
      name: 'server-unknown-module',
      comment: 'every server module has its row in MODULE_STACK (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: `${SERVER}modules/`, pathNot: modulePath(MODULE_STACK.flat()) },
      to: {},
    },
    {
      name: 'web-feature-imports-feature',
      comment: 'web features never import each other (src/app composes them)',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-lib-imports-up',
      comment: 'lib/ and components/ never import a feature or the app (features register through lib/)',
      severity: 'error',
      from: { path: '^apps/web/src/(lib|components)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'web-lib-imports-components',
      comment: 'lib/ stands below components/',
      severity: 'error',
      from: { path: '^apps/web/src/lib/' },
      to: { path: '^apps/web/src/components/' },
    },
    {
      name: 'web-feature-imports-app',
      comment: 'features never import the app shell (the app imports them)',
      severity: 'error',
      from: { path: '^apps/web/src/features/' },
      to: { path: '^apps/web/src/app/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
  },
};
