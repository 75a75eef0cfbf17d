/**
 * Parity of the run helpers: `extractToolResults` and the other message and text helpers of
 * `@mastra/evals/scorers/utils` that tracejudge exports under the same names, and the trajectory utilities, called
 * with the same arguments through the pinned package (one Node 22 process for every call) and through
 * tracejudge. The values (after a JSON round trip: Mastra's `Date`s become strings on both sides) must be equal,
 * and a call must throw on both sides or on neither. The messages cover Mastra's message shapes: format-2 messages
 * with text parts, tool invocations in `parts`, in the legacy `content.toolInvocations` array, or in both (with
 * an overlap and a failed call), reasoning, string content, and inputs with system, tagged and remembered messages.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import * as tracejudge from '../../../src/index.js';
import { referenceUnsupported, runReference } from '../reference.js';

const SCRIPT = fileURLToPath(new URL('./scripts/run-helpers.mjs', import.meta.url));
const AT = '2026-01-01T00:00:00.000Z';

type Msg = Record<string, unknown>;
const text = (t: string): Msg => ({ type: 'text', text: t });
const partInvocation = (id: string, name: string, state: string, extra: Msg = {}): Msg => ({ type: 'tool-invocation', toolInvocation: { state, toolCallId: id, toolName: name, args: { q: id }, ...extra } });
const msg = (id: string, role: string, parts: Msg[], content: Msg = {}): Msg => ({ id, role, createdAt: AT, content: { format: 2, parts, ...content } });

/** Output message lists. */
const OUTPUTS: Record<string, Msg[]> = {
  textOnly: [msg('a1', 'assistant', [text('Paris is the capital.')], { content: 'Paris is the capital.' })],
  legacyTools: [
    msg('a1', 'assistant', [text('Sunny.')], {
      content: 'Sunny.',
      toolInvocations: [
        { state: 'result', toolCallId: 'c1', toolName: 'weather', args: { city: 'Paris' }, result: { sky: 'sunny' } },
        { state: 'call', toolCallId: 'c2', toolName: 'search', args: { q: 'x' } },
      ],
    }),
  ],
  partTools: [
    msg('a1', 'assistant', [
      partInvocation('c1', 'weather', 'result', { result: { sky: 'sunny' } }),
      partInvocation('c2', 'fetch', 'output-error', { errorText: 'timeout' }),
      text('Done.'),
    ]),
  ],
  bothOverlap: [
    msg('a1', 'assistant', [partInvocation('c1', 'weather', 'result', { result: { sky: 'sunny' } }), partInvocation('c3', 'lookup', 'output-error', { errorText: 'boom' }), text('Sunny.')], {
      toolInvocations: [
        { state: 'result', toolCallId: 'c1', toolName: 'weather', args: { q: 'c1' }, result: { sky: 'sunny' } },
        { state: 'result', toolCallId: 'c2', toolName: 'search', args: { q: 'c2' }, result: ['a'] },
      ],
    }),
  ],
  contentDiffers: [msg('a1', 'assistant', [text('Part one. '), text('Part two.')], { content: 'The content string.' })],
  reasoning: [msg('a1', 'assistant', [{ type: 'reasoning', reasoning: 'I think.', details: [{ type: 'text', text: 'Step by step.' }] }, text('42.')], { reasoning: 'Top-level reasoning.' })],
  reasoningParts: [msg('a1', 'assistant', [{ type: 'reasoning', reasoning: '', details: [{ type: 'text', text: 'First.' }, { type: 'text', text: 'Second.' }] }, text('42.')])],
  severalMessages: [
    msg('a1', 'assistant', [partInvocation('c1', 'search', 'result', { result: 1 })]),
    msg('t1', 'tool', [text('tool output')]),
    msg('a2', 'assistant', [text('Final answer.')], { content: 'Final answer.' }),
  ],
  userInOutput: [msg('u9', 'user', [text('A follow-up.')]), msg('a1', 'assistant', [text('Reply.')])],
  empty: [],
  stringContent: [{ id: 'a1', role: 'assistant', createdAt: AT, content: 'Plain string content.' }],
};

/** Scorer run inputs. */
const INPUTS: Record<string, Msg> = {
  simple: { inputMessages: [msg('u1', 'user', [text('What is the capital?')], { content: 'What is the capital?' })], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
  rich: {
    inputMessages: [msg('u1', 'user', [text('First question.')]), msg('u2', 'user', [text('Second question.')], { content: 'Second question.' })],
    rememberedMessages: [msg('r1', 'user', [text('Earlier.')]), msg('r2', 'assistant', [text('Earlier answer.')])],
    systemMessages: [{ role: 'system', content: 'Be brief.' }, { role: 'system', content: [{ type: 'text', text: 'Be kind.' }] }],
    taggedSystemMessages: { memory: [{ role: 'system', content: 'You remember things.' }], tools: [{ role: 'system', content: 'Use tools.' }] },
  },
  noUser: { inputMessages: [], rememberedMessages: [], systemMessages: [{ role: 'system', content: 'Only system.' }], taggedSystemMessages: {} },
  notAgent: { text: 'not an agent input' },
};

type Step = Record<string, unknown>;
const tool = (name: string, extra: Step = {}): Step => ({ stepType: 'tool_call', name, ...extra });
const TRAJECTORIES: Record<string, { steps: Step[]; totalDurationMs?: number }> = {
  plain: { steps: [tool('search', { toolArgs: { q: 'a' } }), tool('summarize')] },
  redundant: { steps: [tool('search', { toolArgs: { q: 'a' } }), tool('search', { toolArgs: { q: 'a' } }), tool('escalate'), tool('admin-override')], totalDurationMs: 9000 },
  retries: { steps: [tool('fetch', { success: false }), tool('fetch', { success: false }), tool('fetch', { toolArgs: { q: 'b' } }), tool('fallback')] },
  tokens: {
    steps: [
      { stepType: 'model_generation', name: 'm1', promptTokens: 700, completionTokens: 500, durationMs: 1500 },
      tool('search', { durationMs: 4000 }),
      { stepType: 'model_generation', name: 'm2', promptTokens: 600, completionTokens: 300, durationMs: 500 },
    ],
  },
  nested: { steps: [{ stepType: 'agent_run', name: 'sub', children: [tool('search'), tool('summarize')] }, tool('summarize')] },
};

/** The calls: every helper on every shape it takes, and the trajectory utilities with several options. */
const CALLS: Array<{ fn: string; args: unknown[] }> = [
  ...Object.values(OUTPUTS).flatMap((o) => [
    { fn: 'extractToolResults', args: [o] },
    { fn: 'extractToolCalls', args: [o] },
    { fn: 'getAssistantMessageFromRunOutput', args: [o] },
    { fn: 'extractAgentResponseMessages', args: [o] },
    { fn: 'getReasoningFromRunOutput', args: [o] },
    { fn: 'extractTrajectory', args: [o] },
    ...o.map((m) => ({ fn: 'getTextContentFromMastraDBMessage', args: [m] })),
    ...o.map((m) => ({ fn: 'mergeToolInvocations', args: [m] })),
  ]),
  ...Object.values(INPUTS).flatMap((i) => [
    { fn: 'getUserMessageFromRunInput', args: [i] },
    { fn: 'getSystemMessagesFromRunInput', args: [i] },
    { fn: 'getCombinedSystemPrompt', args: [i] },
    { fn: 'extractInputMessages', args: [i] },
  ]),
  ...[0, 0.004, 0.005, 0.015, 0.125, 0.3333, 0.6666666, 1, 2.675, -0.555].map((n) => ({ fn: 'roundToTwoDecimals', args: [n] })),
  ...[
    [0.5, 0.6, 0.1],
    [0.5, 0.1, 0.9],
    [0.2, 0.4, 0],
  ].map((a) => ({ fn: 'isCloserTo', args: a })),
  ...Object.values(TRAJECTORIES).flatMap((t) => [
    { fn: 'compareTrajectories', args: [t, { steps: [{ name: 'search' }, { name: 'summarize', stepType: 'tool_call' }] }] },
    { fn: 'compareTrajectories', args: [t, { steps: [{ name: 'search', toolArgs: { q: 'a' } }, { name: 'summarize' }] }, { ordering: 'strict', allowRepeatedSteps: false }] },
    { fn: 'compareTrajectories', args: [t, { steps: [{ name: 'summarize' }, { name: 'search' }] }, { ordering: 'unordered' }] },
    { fn: 'checkTrajectoryEfficiency', args: [t, { maxSteps: 3, maxTotalTokens: 2000, maxTotalDurationMs: 5000, noRedundantCalls: true }] },
    { fn: 'checkTrajectoryEfficiency', args: [t, {}] },
    { fn: 'checkTrajectoryBlacklist', args: [t, { blacklistedTools: ['admin-override'], blacklistedSequences: [['escalate', 'admin-override']] }] },
    { fn: 'analyzeToolFailures', args: [t, { maxRetriesPerTool: 1 }] },
    { fn: 'analyzeToolFailures', args: [t] },
  ]),
];

const ours = (fn: string, args: unknown[]): { value: unknown } | { error: string } => {
  try {
    const f = (tracejudge as unknown as Record<string, unknown>)[fn];
    if (typeof f !== 'function') throw new Error(`tracejudge has no ${fn}`);
    const value: unknown = (f as (...a: unknown[]) => unknown)(...(JSON.parse(JSON.stringify(args)) as unknown[]));
    return { value: value === undefined ? { $undefined: true } : (JSON.parse(JSON.stringify(value)) as unknown) };
  } catch (err) {
    return { error: String((err as Error).message ?? err).slice(0, 300) };
  }
};

/** JSON with object keys sorted: equal values give equal text whatever the order their keys were set in. */
function canonical(v: unknown): string {
  const sort = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(sort) : x !== null && typeof x === 'object' ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort((x as Record<string, unknown>)[k])])) : x;
  return JSON.stringify(sort(v));
}

/**
 * The documented Mastra bug among these calls (docs/mastra-compat.md, "Parity"): `checkTrajectoryEfficiency`
 * reports `totalDurationMs: 0` for a trajectory with no duration measurement (no `totalDurationMs`, and steps
 * without `durationMs`), where tracejudge reports it as unknown (no `totalDurationMs`). Nothing else may differ:
 * the rule removes that field from both sides only in that case.
 */
function withoutUnmeasuredDuration(fn: string, args: unknown[], m: unknown, o: unknown): [unknown, unknown] {
  const t = args[0] as { totalDurationMs?: number; steps?: Array<{ durationMs?: number }> } | undefined;
  const unmeasured = t?.totalDurationMs === undefined && (t?.steps ?? []).every((s) => s.durationMs === undefined);
  const mv = m as { totalDurationMs?: unknown } | null;
  const ov = o as { totalDurationMs?: unknown } | null;
  if (fn !== 'checkTrajectoryEfficiency' || !unmeasured || mv?.totalDurationMs !== 0 || ov === null || 'totalDurationMs' in ov) return [m, o];
  const { totalDurationMs: _dropped, ...rest } = mv as Record<string, unknown>;
  return [rest, o];
}

const unsupported = referenceUnsupported();

describe.skipIf(unsupported !== undefined)(`run helpers: tracejudge and @mastra/evals agree${unsupported ? ` (skipped: ${unsupported})` : ''}`, () => {
  let mastra: Array<{ value: unknown } | { error: string }> = [];
  beforeAll(async () => {
    mastra = await runReference(SCRIPT, CALLS, { timeoutMs: 120_000 });
  }, 300_000);

  it('covers extractToolResults and the text helpers', () => {
    const fns = new Set(CALLS.map((c) => c.fn));
    for (const f of ['extractToolResults', 'extractToolCalls', 'getAssistantMessageFromRunOutput', 'getUserMessageFromRunInput', 'getSystemMessagesFromRunInput', 'getCombinedSystemPrompt', 'getTextContentFromMastraDBMessage', 'extractInputMessages', 'extractAgentResponseMessages', 'mergeToolInvocations', 'getReasoningFromRunOutput']) {
      expect(fns.has(f), f).toBe(true);
    }
    // Mastra answered most calls (a shape it rejects still counts, as long as both sides reject it).
    expect(mastra.filter((o) => 'error' in o).length).toBeLessThan(CALLS.length / 5);
  });

  it('returns the same value for every call', () => {
    const differ = CALLS.map((c, i) => ({ i, fn: c.fn, args: JSON.stringify(c.args).slice(0, 160), mastra: mastra[i], ours: ours(c.fn, c.args) })).filter((d) => {
      const m = d.mastra;
      const o = d.ours;
      if (!m) return true;
      if ('error' in m || 'error' in o) return 'error' in m !== 'error' in o;
      const [mv, ov] = withoutUnmeasuredDuration(d.fn, CALLS[d.i]?.args ?? [], m.value, o.value);
      return canonical(mv) !== canonical(ov);
    });
    expect(differ).toEqual([]);
  });
});

describe('extractTrajectory step fields, as Mastra writes them', () => {
  it('keeps a plain-object result, wraps an array or a primitive as { value }, and leaves none undefined', () => {
    const { extractTrajectory, createTestMessage } = tracejudge;
    const out = [
      createTestMessage({
        content: 'x',
        role: 'assistant',
        toolInvocations: [
          { toolCallId: 'c1', toolName: 'a', args: { q: 1 }, result: { ok: true }, state: 'result' },
          { toolCallId: 'c2', toolName: 'b', args: ['p'], result: ['r'], state: 'result' },
          { toolCallId: 'c3', toolName: 'c', result: 'text', state: 'result' },
          { toolCallId: 'c4', toolName: 'd', args: { q: 2 }, state: 'call' },
        ],
      }),
    ];
    const steps = extractTrajectory(out).steps as Array<{ name: string; toolArgs?: unknown; toolResult?: unknown }>;
    expect(steps.map((s) => [s.name, s.toolArgs, s.toolResult])).toEqual([
      ['a', { q: 1 }, { ok: true }],
      ['b', { value: ['p'] }, { value: ['r'] }],
      ['c', undefined, { value: 'text' }],
      ['d', { q: 2 }, undefined],
    ]);
  });
});
