/**
 * The parity suite's cases and the two ways of running them: through the pinned `@mastra/evals`
 * (./scripts/run-scorers.mjs, under Node 22 via test/mastra/reference.ts) and through tracejudge
 * ({@link runOurs}). A case is JSON: the factory's name (a `@mastra/evals/scorers/prebuilt` export, or
 * `checks.<name>`), its arguments, and the run to score. An argument `{ $regex: [source, flags] }` stands for a
 * RegExp and `{ $judge: true }` for the scripted judge's model (a model string here, Mastra's
 * OpenAI-compatible model config there, both reaching the same stub server).
 */
import * as tracejudge from '../../../src/index.js';
import { fileURLToPath } from 'node:url';
import { runReference } from '../reference.js';

export interface ScorerCase {
  /** Shown in test names. */
  name: string;
  factory: string;
  args: unknown[];
  run: Record<string, unknown>;
}

/** One side's outcome: the score (`'NaN'` for NaN) and reason, or the error message. */
export type Outcome = { score: number | 'NaN' | null; reason: string | null } | { error: string };

/** The scripted judge both sides reach. */
export interface JudgeRef {
  baseURL: string;
  apiKey: string;
  modelId: string;
}

export const PARITY_SCRIPT = fileURLToPath(new URL('./scripts/run-scorers.mjs', import.meta.url));

/** Runs the cases through `@mastra/evals` in one Node 22 process. */
export function runMastra(cases: readonly ScorerCase[], judge?: JudgeRef): Promise<Outcome[]> {
  return runReference<Outcome[]>(PARITY_SCRIPT, { judge, cases }, { timeoutMs: 300_000 });
}

type Factory = (...args: unknown[]) => { run(run: unknown): Promise<{ score: number; reason?: string }> };

function decode(value: unknown, judge: JudgeRef | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => decode(v, judge));
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (Array.isArray(o.$regex)) return new RegExp(String(o.$regex[0]), String(o.$regex[1] ?? ''));
    if (o.$judge === true) {
      if (!judge) throw new Error('a case uses $judge but no judge was given');
      return `openai/${judge.modelId}`;
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, decode(v, judge)]));
  }
  return value;
}

function ourFactory(name: string): Factory {
  const lib = tracejudge as unknown as Record<string, unknown>;
  const f = name.startsWith('checks.') ? (tracejudge.checks as unknown as Record<string, unknown>)[name.slice('checks.'.length)] : lib[name];
  if (typeof f !== 'function') throw new Error(`tracejudge has no ${name}`);
  return f as Factory;
}

/**
 * Runs the cases through tracejudge, one after the other (the judge's stub answers by content, so order does
 * not matter, but sequential runs keep the request log readable). The judge is reached through the environment
 * (`OPENAI_BASE_URL`, `OPENAI_API_KEY`), which the caller points at the stub.
 */
export async function runOurs(cases: readonly ScorerCase[], judge?: JudgeRef): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const c of cases) {
    try {
      const scorer = ourFactory(c.factory)(...(decode(c.args, judge) as unknown[]));
      // JSON round trip: the same run Mastra's side received.
      const r = await scorer.run(JSON.parse(JSON.stringify(c.run)));
      out.push({ score: Number.isNaN(r.score) ? 'NaN' : r.score, reason: r.reason ?? null });
    } catch (err) {
      out.push({ error: String((err as Error).message ?? err).slice(0, 300) });
    }
  }
  return out;
}

/** An agent run in Mastra's shape: one user message (and optional system message), one assistant message. */
export function agentRun(
  user: string,
  answer: string,
  extra: { system?: string; tools?: Array<{ name: string; args?: unknown; result?: unknown; state?: 'result' | 'call' }>; groundTruth?: unknown } = {},
): Record<string, unknown> {
  const { createTestMessage } = tracejudge;
  const run = tracejudge.createAgentTestRun({
    inputMessages: [createTestMessage({ content: user, role: 'user', id: 'u1' })],
    systemMessages: extra.system ? [{ role: 'system', content: extra.system }] : [],
    output: [
      createTestMessage({
        content: answer,
        role: 'assistant',
        id: 'a1',
        ...(extra.tools
          ? { toolInvocations: extra.tools.map((t, i) => ({ toolCallId: `call-${i + 1}`, toolName: t.name, args: t.args ?? {}, result: t.result ?? { ok: true }, state: t.state ?? 'result' })) }
          : {}),
      }),
    ],
  });
  const json = JSON.parse(JSON.stringify({ input: run.input, output: run.output })) as Record<string, unknown>;
  // createdAt differs between the two test-message builders (a Date there); fix it so both runs are the same.
  for (const m of json.output as Array<Record<string, unknown>>) m.createdAt = '2026-01-01T00:00:00.000Z';
  for (const m of (json.input as { inputMessages: Array<Record<string, unknown>> }).inputMessages) m.createdAt = '2026-01-01T00:00:00.000Z';
  if (extra.groundTruth !== undefined) json.groundTruth = extra.groundTruth;
  return json;
}
