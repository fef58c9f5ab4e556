/**
 * The architecture, checked on every `npm run lint`:
 * contract ← lib ← features ← app; server imports only the contract; features do not import each other;
 * no cycles.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Import cycles make modules impossible to understand on their own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-not-server',
      severity: 'error',
      comment: 'The browser code never imports the server.',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-only-contract',
      severity: 'error',
      comment: 'The server may import only the contract (src/contract) from src/.',
      // One test holds the browser's editing model to the real sandbox (a product created, read back and opened).
      from: { path: '^server/', pathNot: '^server/sandbox/edit-round-trip\\.test\\.ts$' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'The contract stands alone: nothing else from src/ or server/ (packages are checked by ESLint).',
      from: { path: '^src/contract/' },
      to: { path: '^(src|server)/', pathNot: '^src/contract/' },
    },
    {
      name: 'features-independent',
      severity: 'error',
      comment: 'Features do not import each other; share through src/lib or src/contract.',
      from: { path: '^src/features/([^/]+)/', pathNot: '^src/features/(activity|approvals)/' },
      to: {
        path: '^src/features/([^/]+)/',
        // Every write a site's rule may hold back asks for approval through the approvals' calls (no screens);
        // the editor opens a pending update's body on the product as read, as the Activity page applies an update.
        pathNot: ['^src/features/$1/', '^src/features/approvals/approvals-api[.]ts$', '^src/features/activity/update-diff[.]ts$'],
      },
    },
    {
      name: 'activity-reads-products-model',
      severity: 'error',
      comment:
        'The Activity page shows a product update as the editor diffs it and reverts it through the products fetch layer: it ' +
        'may import the products model and product-api.ts (pure modules, no screens), and no other feature.',
      from: { path: '^src/features/activity/' },
      to: {
        path: '^src/features/(?!activity/)',
        // A revert is an update: it asks for approval as the editor does (the rule, the button's words, the notice).
        pathNot: ['^src/features/products/(model/[^/]+|product-api|approval)[.]tsx?$', '^src/features/approvals/approvals-api[.]ts$'],
      },
    },
    {
      name: 'approvals-read-products',
      severity: 'error',
      comment:
        'A change waiting for approval is shown exactly as the editor shows what it sends: the approvals pages may import the ' +
        'products model, product-api.ts, the Review step, the change list and the editor settings’ context, and the Activity ' +
        'page’s reading of an update (update-diff.ts, a pure module); no other feature, and no other screen of them.',
      from: { path: '^src/features/approvals/' },
      to: {
        path: '^src/features/(?!approvals/)',
        pathNot:
          '^src/features/(products/(model/[^/]+|product-api|steps/review-step|edit/change-list|editor/settings)[.]tsx?|activity/update-diff[.]ts)$',
      },
    },
    {
      name: 'lib-is-shared',
      severity: 'error',
      comment: 'src/lib is shared by every feature: it imports neither features nor the app.',
      from: { path: '^src/lib/' },
      to: { path: '^src/(features|app)/' },
    },
    {
      name: 'features-not-app',
      severity: 'error',
      comment: 'Features must not import the app shell.',
      from: { path: '^src/features/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'floor-not-auth',
      severity: 'error',
      comment:
        'The HTTP floor (the pipeline, our own API, who asks and host names) knows who asks through server/identity.ts, ' +
        'never the accounts service behind it. Their tests may: they put the real service in front of a step.',
      from: { path: '^server/(pipeline/|own-api[.]ts$|identity[.]ts$|hosts[.]ts$)', pathNot: '[.]test[.]ts$' },
      to: { path: '^server/auth/' },
    },
    {
      name: 'testing-stays-out-of-the-build',
      severity: 'error',
      comment:
        'server/testing/ holds what only tests use (test servers, a throwaway PostgreSQL, an OpenID provider, a ' +
        'software authenticator): no code of the app or the server imports it, so no build ever contains it.',
      from: { path: '^(src|server)/', pathNot: '([.]test[.]tsx?$|^server/testing/)' },
      to: { path: '^server/testing/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|bench/results)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
