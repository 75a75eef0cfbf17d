/**
 * `npm run bench [-- --quick] [-- --only ingest,memory,…] [-- --no-write] [-- --no-build]`: builds dist/ (unless
 * --no-build), runs the scenarios against it (bench/lib/use-dist.ts), prints the table, and writes
 * bench/RESULTS.md.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BENCH_USAGE, BenchUsageError, checkScenarioNames, parseBenchArgs } from './lib/args.js';

process.env.TRACEJUDGE_LOG_LEVEL ??= 'warn';

/** A usage error: one line naming what was wrong, the usage, exit 2. */
function usageError(message: string): never {
  process.stderr.write(`[bench] ${message}\n${BENCH_USAGE}\n`);
  process.exit(2);
}
function orUsageError<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof BenchUsageError) usageError(err.message);
    throw err;
  }
}
const { quick, write, build, only } = orUsageError(() => parseBenchArgs(process.argv.slice(2)));

const root = fileURLToPath(new URL('..', import.meta.url));
// The benchmarks measure the built code (dist/), as it ships: build it, then load it for every import of src/.
if (build) {
  const { execFileSync } = await import('node:child_process');
  process.stderr.write('[bench] npm run build…\n');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
} else {
  // --no-build measures dist/ as it is: say so when src/ has changed since it was built (an A/B of a
  // changed src/ would otherwise compare the old build with itself), and stop when there is no build.
  const { staleBuild } = await import('./lib/stale-build.js');
  const stale = staleBuild(root);
  if (stale?.build === 'missing') usageError('--no-build, but dist/ has no build: run `npm run build` first, or drop --no-build');
  if (stale) process.stderr.write(`[bench] warning: --no-build, but ${stale.source} is newer than the build in dist/, so this run measures the old build (drop --no-build to rebuild)\n`);
}
await import('./lib/use-dist.js');

const { machineInfo } = await import('./lib/machine.js');
const { textTable, writeResults } = await import('./lib/results.js');
const { scenarios } = await import('./scenarios/index.js');
orUsageError(() => checkScenarioNames(only, scenarios.map(([name]) => name)));

const machine = machineInfo();
const ctx = { quick, notes: [] as string[], log: (m: string) => process.stderr.write(`[bench] ${m}\n`) };
ctx.log(`${quick ? 'quick' : 'full'} run on ${machine.cpuModel} (${machine.cores} cores, ${machine.ramGiB} GiB), Node ${machine.node}, commit ${machine.commit}, load ${machine.loadAverage}`);
const t0 = performance.now();
const rows = [];
for (const [name, scenario] of scenarios) {
  if (only && !only.includes(name)) continue;
  const s0 = performance.now();
  ctx.log(`scenario ${name}…`);
  try {
    rows.push(...(await scenario(ctx)));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    ctx.log(`scenario ${name} failed: ${why}`);
    rows.push({ scenario: name, metric: 'scenario', value: null, note: `failed: ${why.slice(0, 200)}` });
  }
  ctx.log(`scenario ${name} done in ${((performance.now() - s0) / 1000).toFixed(1)} s`);
}
const durationS = (performance.now() - t0) / 1000;
process.stdout.write(`${textTable(rows)}\n\n${ctx.notes.map((n) => `- ${n}`).join('\n')}\n`);
ctx.log(`total ${durationS.toFixed(1)} s`);
if (write) {
  const path = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
  writeResults(path, { machine, mode: quick ? 'quick' : 'full', rows, notes: ctx.notes, durationS });
  ctx.log(`wrote ${path}`);
}
