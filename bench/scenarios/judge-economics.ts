/**
 * Judge economics: judge requests and tokens per scored run for {hallucination, faithfulness,
 * answer-relevancy} through the stub judge over real HTTP, on the same runs:
 * - naive: every step of every scorer, reason always, no sharing, no cache (the reference's behaviour);
 * - default policy: the scorers and economics the service builds from config (`buildService`: shared
 *   claim extraction, answer cache, reason on-fail) run by the product pipeline (runBudgeted, judge scope).
 * Runs are made unique (the generator replicates fixture templates, so many runs would otherwise be exact
 * duplicates that the cache answers for free); a second default-policy row uses the runs as generated.
 * Scores must be identical between naive and default, run by run.
 */
import { parseConfig } from '../../src/config/load.js';
import { judgeSection } from '../../src/config/sections/judge.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { EmitResult, Emitter } from '../../src/emit/emitter.js';
import type { AgentRunContext } from '../../src/model/agent-run.js';
import { assistantMessage, messageInvocations, messageText } from '../../src/model/messages.js';
import { extractAgentRunContexts } from '../../src/api/extract.js';
import type { ConfiguredScorer } from '../../src/scorers/descriptor.js';
import { scorerRunOf } from '../../src/pipeline/evaluate.js';
import type { Pipeline } from '../../src/pipeline/pipeline.js';
import { buildService } from '../../src/service/build.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';
import { createJudgeClient, resolveJudgeSettings } from '../../src/judge/index.js';
import { createAnswerRelevancyScorer } from '../../src/scorers/llm/answer-relevancy/index.js';
import { createFaithfulnessScorer } from '../../src/scorers/llm/faithfulness/index.js';
import { createHallucinationScorer } from '../../src/scorers/llm/hallucination/index.js';
import { byMarker, reply, startStubJudge, type StubJudge, type StubReply, type StubRequest } from '../../src/testing/stub-judge/index.js';
import { batchRequests, encodeJson, TraceGenerator } from '../generator.js';
import type { Row } from '../lib/results.js';
import type { BenchContext } from './context.js';

const KEY = 'sk-bench-stub-judge-not-a-real-key';
const SCORERS = ['hallucination', 'faithfulness', 'answer-relevancy'] as const;

/** The stub's own token estimate (prompt: all message text; completion: the reply), ceil(chars / 4). */
const tokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

interface Tally {
  requests: number;
  tokens: number;
  /** Score per `traceId:spanId/scorer`. */
  scores: Map<string, number | undefined>;
  failed: number;
}

/**
 * The stub's answers. Claims and statements carry the run tag found in the prompt (`(run N)`), as a real
 * judge's would differ per output, so the prompts built from them (verdicts, relevance) differ per run too.
 */
function script(req: StubRequest): StubReply | Promise<StubReply> {
  const tag = /\(run \d+\)/.exec(req.user)?.[0] ?? '';
  const claims = [`The order ships today${tag}.`, `It is 18°C in Paris${tag}.`];
  return byMarker(
    [
      ['Extract all claims', reply.json({ claims })],
      ['whether it is a hallucination', reply.json({ verdicts: claims.map((statement) => ({ statement, verdict: 'no', reason: 'supported' })) })],
      ['Judge every claim against the context', reply.json({ verdicts: claims.map(() => ({ verdict: 'yes', reason: 'supported' })) })],
      ['Break the agent output below into meaningful statements', reply.json({ statements: [`It is 18°C in Paris${tag}.`] })],
      ['Rate how each statement relates', reply.json({ results: [{ result: 'yes', reason: 'relevant' }] })],
      [/Explain an? /, reply.text('The score is as computed because every claim is supported.')],
    ],
    reply.text('unscripted'),
  )(req);
}

/** A stub judge that also records the tokens it reports. */
async function countingStub(): Promise<{ stub: StubJudge; tokens: () => number }> {
  let total = 0;
  const stub = await startStubJudge({
    script: async (req: StubRequest): Promise<StubReply> => {
      const r = await script(req);
      if (r.kind === 'content') total += tokens(req.messages.map((m) => m.content).join('').length) + tokens(r.content.length);
      return r;
    },
  });
  return { stub, tokens: () => total };
}

const keyOf = (c: AgentRunContext, scorer: string): string => `${c.run.traceId}:${c.run.spanId}/${scorer}`;

async function naive(contexts: readonly AgentRunContext[]): Promise<Tally> {
  const { stub, tokens: used } = await countingStub();
  const settings = resolveJudgeSettings(judgeSection.parse({}), { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: stub.baseURL });
  const client = createJudgeClient({ ...settings, apiKey: KEY });
  const model = client.port();
  const scorers = [createHallucinationScorer({ model }), createFaithfulnessScorer({ model }), createAnswerRelevancyScorer({ model })];
  const scores = new Map<string, number | undefined>();
  let failed = 0;
  try {
    for (let i = 0; i < contexts.length; i += 8) {
      await Promise.all(
        contexts.slice(i, i + 8).map(async (c) => {
          for (const [j, s] of scorers.entries()) {
            const name = SCORERS[j] as string;
            try {
              const input = scorerRunOf(c, { input: 'agent' } as ConfiguredScorer, undefined);
              const r = await (s.run as (x: unknown) => Promise<{ score?: number }>)(input);
              scores.set(keyOf(c, name), r.score);
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
  const out = { requests: stub.requests.length, tokens: used(), scores, failed };
  await stub.close();
  return out;
}

class CollectingEmitter implements Emitter {
  readonly name = 'bench-collect';
  readonly records: ScoreRecord[] = [];
  start(): Promise<void> {
    return Promise.resolve();
  }
  emit(records: readonly ScoreRecord[]): Promise<EmitResult> {
    this.records.push(...records);
    return Promise.resolve({ code: 'success' });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The service's scorers and economics from config, run by the product pipeline. */
async function defaultPolicy(contexts: readonly AgentRunContext[]): Promise<Tally> {
  const { stub, tokens: used } = await countingStub();
  const config = parseConfig({ scorers: Object.fromEntries(SCORERS.map((t) => [t, { type: t }])), judge: { concurrency: 8 }, emit: { prometheus: { enabled: false } } }, '<bench>', {});
  const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: stub.baseURL };
  const emitter = new CollectingEmitter();
  const service = await buildService(config, createSettings(config, { env, logger: silentLogger(), prometheus: false }), { source: { kind: 'manual' }, sampleAll: true, emitters: [emitter] });
  const pipeline = service.pipeline as Pipeline;
  try {
    await service.start();
    for (let i = 0; i < contexts.length; i += 64) await pipeline.scoreRuns(contexts.slice(i, i + 64));
    await pipeline.idle();
  } finally {
    await service.shutdown(Date.now() + 30_000);
  }
  const scores = new Map<string, number | undefined>();
  let failed = 0;
  for (const r of emitter.records) {
    if (r.error) failed++;
    else scores.set(`${r.traceId}:${r.spanId}/${r.scorer}`, r.score);
  }
  const out = { requests: stub.requests.length, tokens: used(), scores, failed };
  await stub.close();
  return out;
}

/** Each run's last output message gets its run number, so no two runs are exact duplicates. */
function unique(c: AgentRunContext, n: number): AgentRunContext {
  const output = c.run.output.map((m, i) =>
    i === c.run.output.length - 1 ? assistantMessage(`${messageText(m)} (run ${n})`, messageInvocations(m), { id: m.id, createdAt: m.createdAt }) : m,
  );
  return { ...c, run: { ...c.run, output } };
}

function identical(a: Tally, b: Tally): number {
  let same = 0;
  for (const [k, v] of a.scores) if (b.scores.has(k) && Object.is(b.scores.get(k), v)) same++;
  return same;
}

export async function judgeEconomicsScenario(ctx: BenchContext): Promise<Row[]> {
  const runsWanted = ctx.quick ? 50 : 1000;
  const generated: AgentRunContext[] = [];
  const gen = new TraceGenerator({ seed: 31 });
  const seen = new Set<string>();
  while (generated.length < runsWanted) {
    for (const c of batchRequests(gen.take(50), 1_000_000).flatMap((q) => extractAgentRunContexts(encodeJson(q)))) {
      const k = `${c.run.traceId}:${c.run.spanId}`;
      if (generated.length < runsWanted && !seen.has(k)) {
        seen.add(k);
        generated.push(c);
      }
    }
  }
  const runs = generated.map(unique);
  const base = await naive(runs);
  const policy = await defaultPolicy(runs);
  const asGenerated = await defaultPolicy(generated);
  const n = runs.length;
  const evaluations = n * SCORERS.length;
  const scenario = `judge economics (${n} runs × {hallucination, faithfulness, answer-relevancy}, stub judge)`;
  const perRun = (t: Tally): number => t.requests / n;
  ctx.notes.push(
    `Judge economics: the same ${n} extracted runs, each made unique (its run number appended to the last output message). Naive = the three prebuilt scorers run directly, every step, reason always, no sharing or cache. Default policy = the service's path: scorersFromConfig (economics section defaults: shared claim extraction, answer cache; reason on-fail) and the product pipeline (runBudgeted, judge scope). The stub supports every claim, so every evaluation passes and on-fail asks no reason; each failing evaluation would add one request. Scores identical run by run: ${identical(base, policy)}/${evaluations} (naive failed ${base.failed}, default failed ${policy.failed}). Tokens as the stub reports them (ceil(chars/4) of prompt and reply). The as-generated row keeps the generator's duplicate runs (fixture templates replicated), which the answer cache serves without a request: an upper bound of the cache's effect, not a production figure.`,
  );
  return [
    { scenario, metric: 'naive: judge requests per run', value: perRun(base), unit: 'req' },
    { scenario, metric: 'naive: judge tokens per run', value: base.tokens / n, unit: 'tokens' },
    { scenario, metric: 'default policy: judge requests per run', value: perRun(policy), unit: 'req', baseline: perRun(base), baselineName: 'naive', ratio: perRun(policy) / perRun(base), target: 'value ≤ 5', met: perRun(policy) <= 5 },
    { scenario, metric: 'default policy: judge tokens per run', value: policy.tokens / n, unit: 'tokens', baseline: base.tokens / n, baselineName: 'naive', ratio: policy.tokens / base.tokens },
    { scenario, metric: 'default policy: scores identical to naive', value: identical(base, policy) / evaluations, baseline: evaluations, baselineName: 'evaluations', target: '= 1', met: identical(base, policy) === evaluations },
    { scenario, metric: 'default policy, runs as generated (duplicates cached): requests per run', value: perRun(asGenerated), unit: 'req', baseline: perRun(base), baselineName: 'naive', ratio: perRun(asGenerated) / perRun(base) },
  ];
}
