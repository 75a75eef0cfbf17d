// Runs the reference code scorers (@mastra/evals) over the inputs in a JSON file and prints, per scorer,
// runs per second and the scores of the first pass. Started by bench/scenarios/scorers.ts under Node 22
// (the reference's engines). The timing loop is the same as bench/lib/scorer-loop.ts.
//
//     node run-scorers.mjs <inputs.json> <ms-per-scorer> [warm-up-ms]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  createCompletenessScorer,
  createContentSimilarityScorer,
  createKeywordCoverageScorer,
  createTextualDifferenceScorer,
  createToneScorer,
} from '@mastra/evals/scorers/prebuilt';

const [inputsPath, msArg, warmArg = '0'] = process.argv.slice(2);
const inputs = JSON.parse(readFileSync(inputsPath, 'utf8'));
const budgetMs = Number(msArg);
const warmupMs = Number(warmArg);

const factories = {
  'content-similarity': () => createContentSimilarityScorer(),
  'keyword-coverage': () => createKeywordCoverageScorer(),
  'textual-difference': () => createTextualDifferenceScorer(),
  tone: () => createToneScorer(),
  completeness: () => createCompletenessScorer(),
};

const out = {};
for (const [name, make] of Object.entries(factories)) {
  const scorer = make();
  const scores = [];
  for (const x of inputs) scores.push((await scorer.run(x)).score);
  // Untimed whole passes until the warm-up time has passed (steady state, as a long-running service).
  for (const w0 = performance.now(); performance.now() - w0 < warmupMs; ) for (const x of inputs) await scorer.run(x);
  let runs = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    for (const x of inputs) await scorer.run(x);
    runs += inputs.length;
    elapsed = performance.now() - t0;
  }
  out[name] = { runsPerS: runs / (elapsed / 1000), scores };
}
process.stdout.write(`${JSON.stringify(out)}\n`);
