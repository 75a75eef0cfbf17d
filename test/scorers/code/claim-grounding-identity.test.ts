/**
 * Claim grounding gives the same results after the issue-18 speed-ups as before them.
 *
 * The expectations in test/fixtures/claim-grounding-identity/expected.json were recorded BEFORE any of those
 * changes, from the claim-grounding code as it was then (unchanged since its last commit), so they are an
 * independent reference, not the current implementation's own output:
 * - runs.jsonl: every run of test/fixtures/traces/*.json and test/fixtures/labeled/*.json as
 *   `tracejudge extract` printed it (kept here so a change in extraction cannot move the inputs);
 * - for each run, the scorer's score and reason and a SHA-256 of its whole preprocess result (claims and
 *   every supported / contradicted / unsupported / given item with its sources);
 * - for each distinct answer, a SHA-256 of `checkClaims` against the sources of every run (a cross product
 *   that exercises far more specific × source pairs than the fixtures' own pairs), each line
 *   `JSON.stringify({ score, reason, res })`.
 * - answered (which reads the same sources): for each run the scorer's score, reason and preprocess digest,
 *   then one SHA-256 per block of `nonAnswerOf` lines: every distinct answer × every run (its question, tools,
 *   documents), then every distinct question × every run (its answer, tools, documents).
 * A speed-up that changes one score, one reason or one item of one pair fails here.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PreparedRun } from '../../../src/scorers/core/types.js';
import { createAnsweredScorer, nonAnswerOf } from '../../../src/scorers/code/answered/index.js';
import { checkClaims, claimGroundingReason, claimGroundingScore, createClaimGroundingScorer } from '../../../src/scorers/code/claim-grounding/index.js';
import { runSources } from '../../../src/scorers/code/claim-grounding/run-sources.js';

const dir = fileURLToPath(new URL('../../fixtures/claim-grounding-identity/', import.meta.url));
const runs = readFileSync(`${dir}runs.jsonl`, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as PreparedRun & { traceId: string; spanId: string });
const expected = JSON.parse(readFileSync(`${dir}expected.json`, 'utf8')) as {
  runs: { run: string; score: number | null; reason: string | null; preprocess: string }[];
  crossProduct: { answers: number; sourcesPerAnswer: number; sha256PerAnswer: string[] };
  answered: { runs: { score: number | null; reason: string | null; preprocess: string }[]; sha256PerBlock: string[] };
};
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('claim grounding is unchanged by the speed-ups', () => {
  it('gives every fixture run the recorded score, reason and preprocess result', async () => {
    expect(runs.length).toBe(expected.runs.length);
    const scorer = createClaimGroundingScorer();
    const got: typeof expected.runs = [];
    for (const run of runs) {
      const r = await scorer.run(run);
      got.push({ run: `${run.traceId}/${run.spanId}`, score: r.score ?? null, reason: r.reason ?? null, preprocess: sha256(JSON.stringify(r.preprocessStepResult ?? null)) });
    }
    expect(got).toEqual(expected.runs);
  });

  it('gives every answer × every run’s sources the recorded result', () => {
    const sources = runs.map((r) => runSources(r, []));
    const answers = [...new Set(sources.map((s) => s.answer))];
    expect([answers.length, sources.length]).toEqual([expected.crossProduct.answers, expected.crossProduct.sourcesPerAnswer]);
    const got = answers.map((answer) =>
      sha256(
        sources
          .map((s) => {
            const res = checkClaims(answer, s.tools, s.documents, { givenText: s.givenText, ...(s.day ? { day: s.day } : {}) });
            const score = claimGroundingScore(res);
            return JSON.stringify({ score, reason: claimGroundingReason(res, score), res });
          })
          .join('\n'),
      ),
    );
    expect(got).toEqual(expected.crossProduct.sha256PerAnswer);
  }, 120_000);

  it('leaves the answered scorer unchanged on every run and every answer / question × sources pair', async () => {
    const scorer = createAnsweredScorer();
    const got: typeof expected.answered.runs = [];
    for (const run of runs) {
      const r = await scorer.run(run);
      got.push({ score: r.score ?? null, reason: r.reason ?? null, preprocess: sha256(JSON.stringify(r.preprocessStepResult ?? null)) });
    }
    expect(got).toEqual(expected.answered.runs);
    const sources = runs.map((r) => runSources(r, []));
    const blocks: string[] = [];
    for (const answer of new Set(sources.map((s) => s.answer))) blocks.push(sha256(sources.map((s) => JSON.stringify(nonAnswerOf(answer, s.question, s.tools, s.documents))).join('\n')));
    for (const question of new Set(sources.map((s) => s.question))) blocks.push(sha256(sources.map((s) => JSON.stringify(nonAnswerOf(s.answer, question, s.tools, s.documents))).join('\n')));
    expect(blocks).toEqual(expected.answered.sha256PerBlock);
  }, 120_000);
});
