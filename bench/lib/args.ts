/** The command line of `bench/run.ts`: `[--quick] [--only NAME[,NAME…]] [--no-write] [--no-build]`. */

export const BENCH_USAGE = 'usage: npm run bench -- [--quick] [--only NAME[,NAME…]] [--no-write] [--no-build]';

export interface BenchArgs {
  quick: boolean;
  /** Write bench/RESULTS.md (a full run without `--no-write`; never with `--only`). */
  write: boolean;
  /** Build dist/ first (without `--no-build`). */
  build: boolean;
  /** The scenarios `--only` names, in its order; undefined for all. */
  only?: string[];
}

/** A wrong command line: its message names the argument. */
export class BenchUsageError extends Error {}

const FLAGS = new Set(['--quick', '--no-write', '--no-build']);

/** The options of `args`, or a `BenchUsageError` naming the first argument that is not one. */
export function parseBenchArgs(args: readonly string[]): BenchArgs {
  let only: string[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (FLAGS.has(a)) continue;
    let value: string | undefined;
    if (a === '--only') value = args[++i];
    else if (a.startsWith('--only=')) value = a.slice('--only='.length);
    else throw new BenchUsageError(`unknown argument ${JSON.stringify(a)}`);
    const names = value?.split(',');
    if (only !== undefined) throw new BenchUsageError('--only given twice');
    if (!names || names.some((n) => n === '' || n.startsWith('--'))) throw new BenchUsageError('--only needs scenario names, as in --only scorers,pipeline');
    only = names;
  }
  const write = !args.includes('--no-write') && only === undefined;
  return { quick: args.includes('--quick'), write, build: !args.includes('--no-build'), ...(only ? { only } : {}) };
}

/** A `BenchUsageError` when `only` names a scenario that is not in `names`. */
export function checkScenarioNames(only: readonly string[] | undefined, names: readonly string[]): void {
  const unknown = (only ?? []).filter((n) => !names.includes(n));
  if (unknown.length > 0) throw new BenchUsageError(`--only: no scenario ${unknown.map((n) => JSON.stringify(n)).join(', ')} (scenarios: ${names.join(', ')})`);
}
