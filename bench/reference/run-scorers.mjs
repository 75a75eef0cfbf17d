// Runs the reference code scorers (@mastra/evals) over the inputs in a JSON file and prints, per scorer,
// runs per second and the scores of the first pass. Started by bench/scenarios/scorers.ts under Node 22
// (the reference's engines). The timing loop is the same as bench/lib/scorer-loop.ts.
//
//     node run-scorers.mjs <inputs.json> <ms-per-scorer> [warm-up-ms] [in-flight]
//
// With `in-flight` > 1, completeness is measured a second time (as `completeness in flight`) with that many
// runs awaited at once, the loop tracejudge's in-flight row uses.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  createCompletenessScorer,
  createContentSimilarityScorer,
  createKeywordCoverageScorer,
  createTextualDifferenceScorer,
  createToneScorer,
} from '@mastra/evals/scorers/prebuilt';

const [inputsPath, msArg, warmArg = '0', inFlightArg = '1'] = process.argv.slice(2);
const inputs = JSON.parse(readFileSync(inputsPath, 'utf8'));
const budgetMs = Number(msArg);
const warmupMs = Number(warmArg);
const inFlight = Number(inFlightArg);

/** One pass over the inputs with up to `lanes` runs awaited at once; `scores[i]` gets input i's score when given. */
async function pass(scorer, lanes, scores) {
  let next = 0;
  const lane = async () => {
    while (next < inputs.length) {
      const i = next++;
      const { score } = await scorer.run(inputs[i]);
      if (scores) scores[i] = score;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, inputs.length)) }, lane));
}

const factories = {
  'content-similarity': () => createContentSimilarityScorer(),
  'keyword-coverage': () => createKeywordCoverageScorer(),
  'textual-difference': () => createTextualDifferenceScorer(),
  tone: () => createToneScorer(),
  completeness: () => createCompletenessScorer(),
};

const runs = [...Object.entries(factories).map(([name, make]) => [name, make, 1])];
if (inFlight > 1) runs.push(['completeness in flight', factories.completeness, inFlight]);
const out = {};
for (const [name, make, lanes] of runs) {
  const scorer = make();
  const scores = [];
  await pass(scorer, lanes, scores);
  // Untimed whole passes until the warm-up time has passed (steady state, as a long-running service).
  for (const w0 = performance.now(); performance.now() - w0 < warmupMs; ) await pass(scorer, lanes);
  let count = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    await pass(scorer, lanes);
    count += inputs.length;
    elapsed = performance.now() - t0;
  }
  out[name] = { runsPerS: count / (elapsed / 1000), scores };
}
process.stdout.write(`${JSON.stringify(out)}\n`);
