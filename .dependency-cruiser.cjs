/**
 * The dependency rules of the repository (dependency-cruiser 17). Checked by test/architecture.test.ts on the
 * TypeScript sources; by hand:  npx depcruise src bench test harness --config .dependency-cruiser.cjs
 *
 * Paths in the rules are relative to the repository root. `$1` in a rule's `to` is the first group its
 * `from.path` matched (dependency-cruiser's group matching).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A cycle in src/ makes load order matter (a class or constant is undefined while its cycle loads) and ' +
        'ties every file in it together: none can be changed, tested or moved alone. Cycles that exist only ' +
        'through type imports (erased by tsc: `import type`, or a name used only as a type) are not counted, ' +
        'as they cannot break loading (a Simulator and the Driver interface it calls back, say).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'pre-compilation-only'] } },
    },
    {
      name: 'bench-no-circular',
      comment:
        'The benchmarks have no cycle at all, type imports counted: an entry point (bench/*.ts) describes its ' +
        'experiment on top of its folder (bench/<experiment>/) and the shared runner (bench/lib/), and none of ' +
        'them reaches back up. What two files of a cycle share goes below both (as summarize went to bench/lib/).',
      severity: 'error',
      from: { path: '^bench/' },
      to: { circular: true },
    },
    {
      name: 'engine-is-pure',
      comment:
        'The engine solves, checks and simulates instances with no service around it (the CLI, the bench and ' +
        'the worker threads load it alone): it may import only src/engine/, Node built-ins and npm packages, ' +
        'never NestJS modules, the worker, the API or the configuration.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { pathNot: ['^src/engine/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'charts-are-pure',
      comment:
        'The charts (src/charts/) turn a plan, a simulation report or an accounting report into a Vega-Lite spec ' +
        'and SVG, the same for the API and for `fallow plot` offline: they may read the engine\'s types and ' +
        'model, never the Nest modules, the worker or the API. The engine, in turn, never draws (engine-is-pure).',
      severity: 'error',
      from: { path: '^src/charts/' },
      to: { pathNot: ['^src/charts/', '^src/engine/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'cli-not-worker',
      comment:
        'The offline CLI (src/cli/) and the worker process (src/worker/) are two callers of the same long work: ' +
        'each kind (solve, simulation, forecast) has one entry in src/work/ that both call, so neither imports ' +
        "the other (the CLI once ran the worker's solve thread and repeated its plan-or-policy choice).",
      severity: 'error',
      from: { path: '^src/(cli|worker)/' },
      to: { path: '^src/(cli|worker)/', pathNot: '^src/$1/' },
    },
    {
      name: 'work-is-pure',
      comment:
        'src/work/ holds one entry per kind of long work (input document in, result out), run inside whichever ' +
        'thread calls it, the worker\'s or the CLI\'s: it may import the engine, Node built-ins and npm ' +
        'packages, never the NestJS modules, the worker, the API or the CLI.',
      severity: 'error',
      from: { path: '^src/work/' },
      to: { pathNot: ['^src/work/', '^src/engine/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'strategy-families-apart',
      comment:
        'Each strategy family (src/engine/strategies/<family>/) stands alone on the shared strategy contract ' +
        '(engine/contracts/strategy.ts and the rest of the engine): it must not reach into another family, nor into the registry ' +
        '(strategies/index.ts), which imports every family and so closes a cycle. What two families share ' +
        'belongs outside the families.',
      severity: 'error',
      from: { path: '^src/engine/strategies/([^/]+)/' },
      to: { path: '^src/engine/strategies/(?:[^/]+/|index\\.ts$)', pathNot: '^src/engine/strategies/$1/' },
    },
    {
      name: 'engine-no-circular',
      comment:
        'Inside the engine not even a type-only cycle is allowed (bench-no-circular says the same of bench/): a circle of types still ties ' +
        'its files together (none can move or be read alone), and the online side grew one of 15 files that ' +
        'no-circular could not see (simulator -> metrics -> portfolio -> simulator, issue 36). Contracts that ' +
        'two sides share live below both (simulate/driver.ts and host.ts, policies/policy.ts, contracts/strategy.ts).',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { circular: true },
    },
    {
      name: 'simulator-knows-no-policy',
      comment:
        'src/engine/simulate/ is the kernel: an event loop and its parts (links, leases, the QoS clock, the task ' +
        'life cycle, the report). Policies drive it through simulate/driver.ts and see it through the narrow ' +
        'interface there; the kernel never imports a policy, a strategy or an entry point, so a new policy or ' +
        'strategy cannot change how time, capacity or transfers are simulated.',
      severity: 'error',
      from: { path: '^src/engine/simulate/' },
      to: { path: ['^src/engine/(policies|strategies)/', '^src/engine/(solve|simulation)\\.ts$'] },
    },
    {
      name: 'policy-families-apart',
      comment:
        'Each policy family (src/engine/policies/<family>/: hadoop, cuckoo, fair, rws, hmjs, aco-bp, posum) ' +
        'stands alone on the shared dispatch bases (policies/dispatch/) and the contract (policies/policy.ts): ' +
        'it must not reach into another family, nor into the registry (policies/index.ts). The bases import no ' +
        'family either. What two families share belongs in dispatch/.',
      severity: 'error',
      from: { path: '^src/engine/policies/([^/]+)/' },
      to: { path: '^src/engine/policies/(?:[^/]+/|index\\.ts$)', pathNot: '^src/engine/policies/($1|dispatch)/' },
    },
    {
      name: 'offline-online-one-way',
      comment:
        'Offline (strategies) and online (the simulator and its policies) meet in one direction: a strategy ' +
        'family never imports the simulator or a policy, and a policy family never imports a strategy family: ' +
        "it gets a strategy by name through the lookup its context carries (as solve() hands StrategyContext.strategy). " +
        'The registries and the entry points (solve.ts, simulation.ts) are where the two are put together.',
      severity: 'error',
      from: { path: '^src/engine/strategies/[^/]+/' },
      to: { path: '^src/engine/(policies|simulate)/' },
    },
    {
      name: 'online-gets-strategies-by-lookup',
      comment: 'The other half of offline-online-one-way: a policy (or the simulator) never imports a strategy family.',
      severity: 'error',
      from: { path: '^src/engine/(policies|simulate)/' },
      to: { path: '^src/engine/strategies/[^/]+/' },
    },
    {
      name: 'engine-layers-point-down',
      comment:
        'The engine is layered: the model, schedules, bounds, the evaluator, placement, the network, searches ' +
        'over lists, job sets and revenue, budgets, QoS, forecasting and prediction sit below the strategies, ' +
        'the simulator and the policies, which sit below the entry points (solve.ts, simulation.ts). No arrow ' +
        'runs back up: a shared contract moves below what uses it (test/architecture.test.ts also checks that ' +
        'the engine folders form no circle).',
      severity: 'error',
      from: { path: '^src/engine/(?!strategies/|policies/|simulate/)[^/]+/' },
      to: { path: ['^src/engine/(strategies|policies|simulate)/', '^src/engine/(solve|simulation)\\.ts$'] },
    },
    {
      name: 'src-not-bench-or-test',
      comment:
        'src/ is what ships (dist/src, the Docker image): it must not import the benchmark, the tests or the ' +
        'harness they share, which need their dev dependencies, fixtures and a checkout of the repository.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(bench|test|harness)/' },
    },
    {
      name: 'bench-not-test',
      comment:
        'The benchmark is its own entry point (npm run bench): what it shares with the tests lives in harness/, ' +
        'so that changing a test helper cannot change a benchmark and the tests can move freely.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'harness-not-bench-or-test',
      comment:
        'harness/ is what bench/ and test/ share; it must depend on neither of them, or the edge it exists to ' +
        'remove comes back through it.',
      severity: 'error',
      from: { path: '^harness/' },
      to: { path: '^(bench|test)/' },
    },
    {
      name: 'modules-own-their-data',
      comment:
        "A Nest module owns its tables: another module's entities and repositories are reached through its " +
        'exported services, so that a schema change stays inside one module. src/modules/database/ (the ' +
        'TypeORM data source and the migrations) lists every entity and is exempt. A type-only import of ' +
        "another module's entity (the shape of a row its service returns) is allowed: tsc erases it, and it " +
        'can neither inject the table nor query it.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: '^src/modules/database/' },
      to: { path: '^src/modules/[^/]+/.+\\.(entity|repository)\\.ts$', pathNot: '^src/modules/$1/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'worker-uses-modules-through-exports',
      comment:
        "The worker is a client of the modules: it uses their exported services, never their entities or " +
        'repositories, so that the modules stay free to change how they store things (type-only imports of ' +
        'the rows a handler receives are allowed, as above).',
      severity: 'error',
      from: { path: '^src/worker/' },
      to: { path: '^src/modules/.+\\.(entity|repository)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    // Imports tsc erases (types only) count as dependencies too: an entity type imported by the worker couples
    // it to that module as much as a value does. 'specify' marks them (type-only, pre-compilation-only), so that
    // no-circular can leave them out.
    tsPreCompilationDeps: 'specify',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
