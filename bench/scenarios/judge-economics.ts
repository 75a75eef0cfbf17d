/**
 * Judge economics: judge requests and prompt size per scored run for {hallucination, faithfulness,
 * answer-relevancy} through the stub judge over real HTTP. The naive pipeline (every step of every scorer,
 * reason always, no sharing: the reference's behaviour) is measured; the default policy (shared claim
 * extraction, judge cache, reason on-fail) is reported as not measured until those controls are wired
 * into the scorers the pipeline builds.
 */
import { judgeSection } from '../../src/config/sections/judge.js';
import { extractAgentRuns } from '../../src/extract/extract.js';
import { createJudgeClient, resolveJudgeSettings } from '../../src/scorers/judge/index.js';
import { createAnswerRelevancyScorer } from '../../src/scorers/llm/answer-relevancy/index.js';
import { createFaithfulnessScorer } from '../../src/scorers/llm/faithfulness/index.js';
import { createHallucinationScorer } from '../../src/scorers/llm/hallucination/index.js';
import { LIVE_RUN_KEY } from '../../src/scorers/llm/shared.js';
import { byMarker, reply, startStubJudge } from '../../src/testing/stub-judge/index.js';
import { batchRequests, encodeJson, TraceGenerator } from '../generator.js';
import type { Row } from '../lib/results.js';
import type { BenchContext } from './context.js';

const KEY = 'sk-bench-stub-judge-not-a-real-key';

export async function judgeEconomicsScenario(ctx: BenchContext): Promise<Row[]> {
  const runsWanted = ctx.quick ? 50 : 1000;
  const contexts: { input: unknown; output: unknown; requestContext: unknown }[] = [];
  const gen = new TraceGenerator({ seed: 31 });
  while (contexts.length < runsWanted) {
    for (const r of batchRequests(gen.take(50), 1_000_000).flatMap((q) => extractAgentRuns(encodeJson(q)))) {
      if (contexts.length < runsWanted) contexts.push({ input: r.input, output: r.output, requestContext: { [LIVE_RUN_KEY]: { toolResults: r.toolResults, context: r.context } } });
    }
  }
  const stub = await startStubJudge({
    script: byMarker(
      [
        ['Extract all claims', reply.json({ claims: ['The order ships today.', 'It is 18°C in Paris.'] })],
        ['whether it is a hallucination', reply.json({ verdicts: [{ statement: 'The order ships today.', verdict: 'no', reason: 'supported' }, { statement: 'It is 18°C in Paris.', verdict: 'no', reason: 'supported' }] })],
        ['Judge every claim against the context', reply.json({ verdicts: [{ verdict: 'yes', reason: 'supported' }, { verdict: 'yes', reason: 'supported' }] })],
        ['Break the agent output below into meaningful statements', reply.json({ statements: ['It is 18°C in Paris.'] })],
        ['Rate how each statement relates', reply.json({ results: [{ result: 'yes', reason: 'relevant' }] })],
        [/Explain an? /, reply.text('The score is as computed because every claim is supported.')],
      ],
      reply.text('unscripted'),
    ),
  });
  const settings = resolveJudgeSettings(judgeSection.parse({}), { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: stub.baseURL });
  const client = createJudgeClient({ ...settings, apiKey: KEY });
  const model = client.port();
  const scorers = [createHallucinationScorer({ model }), createFaithfulnessScorer({ model }), createAnswerRelevancyScorer({ model })];
  let scored = 0;
  let failed = 0;
  try {
    for (let i = 0; i < contexts.length; i += 8) {
      await Promise.all(
        contexts.slice(i, i + 8).map(async (c) => {
          for (const s of scorers) {
            try {
              await (s.run as (x: unknown) => Promise<unknown>)(c);
              scored++;
            } catch {
              failed++;
            }
          }
        }),
      );
    }
  } finally {
    client.close();
  }
  const requests = stub.requests.length;
  const promptChars = stub.requests.reduce((n, r) => n + r.system.length + r.user.length, 0);
  await stub.close();
  const scenario = `judge economics (${contexts.length} runs × {hallucination, faithfulness, answer-relevancy}, stub judge)`;
  ctx.notes.push(
    `Judge economics: naive = every scorer runs every step with reason always, no sharing or cache (${scored} evaluations scored, ${failed} failed). The default-policy figure needs the economics controls (src/scorers/economics: shared claims, cache, reason on-fail) wired into the scorers the pipeline builds; TODO: measure it once they are, against the target ≤ 5 requests per run with byte-identical scores.`,
  );
  return [
    { scenario, metric: 'naive: judge requests per run', value: requests / contexts.length, unit: 'req' },
    { scenario, metric: 'naive: prompt characters per run', value: promptChars / contexts.length, unit: 'chars' },
    { scenario, metric: 'default policy: judge requests per run', value: null, target: '≤ 5 (naive: 9)', note: 'economics controls not yet wired into the pipeline scorers' },
  ];
}
