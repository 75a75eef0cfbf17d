/**
 * Parity of `extractTrajectoryFromTrace`: the same span records through `@mastra/core/evals` (the pinned 1.71.0,
 * under Node 22, one process for every case; ./scripts/run-trajectory-from-trace.mjs) and through tracejudge.
 *
 * The records are written by hand in the shape Mastra's observability store returns (`SpanRecord`: `Date` times,
 * `entityId` / `entityName`, span-type attributes as Mastra's tracing writes them), covering every span type
 * Mastra documents: agent runs with model generations, model steps, chunks and tool calls; MCP and provider tool
 * calls; workflows with steps, control flow and processors; nested agents and workflows; noise and unknown types;
 * missing parents, several roots, a chosen root, out-of-order start times, running spans and errors.
 *
 * Every case must give the same value on both sides (after a JSON round trip, which drops Mastra's `undefined`
 * fields), except the cases of a documented Mastra bug (docs/mastra-compat.md, "Parity"): for those, each side must
 * give the value written in the case, derived by hand from Mastra's documentation and code.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { extractTrajectoryFromTrace, type SpanRecord } from '../../../src/index.js';
import { referenceUnsupported, runReference } from '../reference.js';

const SCRIPT = fileURLToPath(new URL('./scripts/run-trajectory-from-trace.mjs', import.meta.url));
const COMPAT_DOC = fileURLToPath(new URL('../../../docs/mastra-compat.md', import.meta.url));

type Rec = Record<string, unknown>;
type Json = Record<string, unknown>;

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
/** The ISO time `ms` after T0 (records travel as JSON; both sides turn these into Dates). */
const at = (ms: number): string => new Date(T0 + ms).toISOString();

/** A span record: id, type, parent (null for none), start and end (null while running) in ms after T0. */
function rec(spanId: string, spanType: string, parentSpanId: string | null, start: number, end: number | null, extra: Rec = {}): Rec {
  return { traceId: 'trace-1', spanId, parentSpanId, name: `${spanType} ${spanId}`, spanType, isEvent: false, startedAt: at(start), endedAt: end === null ? null : at(end), ...extra };
}
const agent = (id: string, parent: string | null, start: number, end: number | null, agentId: string, extra: Rec = {}): Rec =>
  rec(id, 'agent_run', parent, start, end, { name: `agent run: '${agentId}'`, entityType: 'agent', entityId: agentId, entityName: agentId, ...extra });
const gen = (id: string, parent: string, start: number, end: number | null, extra: Rec = {}): Rec =>
  rec(id, 'model_generation', parent, start, end, { name: "llm: 'gpt-4o-mini'", attributes: { model: 'gpt-4o-mini', provider: 'openai', usage: { inputTokens: 120, outputTokens: 30 }, finishReason: 'stop' }, ...extra });
const tool = (id: string, parent: string | null, start: number, end: number | null, toolId: string, extra: Rec = {}): Rec =>
  rec(id, 'tool_call', parent, start, end, { name: `tool: '${toolId}'`, entityType: 'tool', entityId: toolId, entityName: toolId, attributes: { toolType: 'tool', success: true }, ...extra });
const wfStep = (id: string, parent: string, start: number, end: number | null, extra: Rec = {}): Rec =>
  rec(id, 'workflow_step', parent, start, end, { name: id, entityType: 'workflow_step', entityId: id, ...extra });

/**
 * A typical Mastra agent trace: one generation with two model steps (a tool call in the first). Processor spans
 * are in the control-flow cases: their `processorId` is one of the documented fields Mastra leaves out.
 */
const AGENT_TRACE: Rec[] = [
  agent('ag', null, 0, 1000, 'weather-agent', { metadata: { resourceId: 'user-1' } }),
  rec('mem', 'memory_operation', 'ag', 5, 15, { name: 'memory: recall', attributes: { operationType: 'recall' } }),
  gen('gen', 'ag', 20, 990, { attributes: { model: 'gpt-4o-mini', provider: 'openai', usage: { inputTokens: 300, outputTokens: 45 }, finishReason: 'stop', streaming: true } }),
  rec('step0', 'model_step', 'gen', 20, 600, { name: 'step: 0', attributes: { stepIndex: 0, finishReason: 'tool-calls' } }),
  rec('inf0', 'model_inference', 'step0', 21, 400, { name: 'inference: 0' }),
  rec('chunk0', 'model_chunk', 'step0', 300, 301, { name: "chunk: 'tool-call'", isEvent: true }),
  tool('weather', 'step0', 410, 590, 'getWeather', { input: { city: 'Paris' }, output: { tempC: 18, sky: 'sunny' } }),
  rec('step1', 'model_step', 'gen', 600, 990, { name: 'step: 1', attributes: { stepIndex: 1, finishReason: 'stop' } }),
  rec('chunk1', 'model_chunk', 'step1', 700, 701, { name: "chunk: 'text-delta'", isEvent: true }),
];

/** A typical workflow trace: steps, one of which runs an agent. */
const WORKFLOW_TRACE: Rec[] = [
  rec('wf', 'workflow_run', null, 0, 500, { name: "workflow run: 'order-flow'", entityType: 'workflow_run', entityId: 'order-flow' }),
  wfStep('fetch-order', 'wf', 10, 100, { output: { orderId: 'A-1', total: 42 } }),
  wfStep('summarize', 'wf', 100, 480, { output: 'Order A-1 costs 42.' }),
  agent('wfag', 'summarize', 110, 470, 'summary-agent'),
  gen('wfgen', 'wfag', 120, 460),
];

interface BugCase {
  /** The phrase naming the bug in docs/mastra-compat.md's table of Mastra bugs. */
  doc: string;
  ours: Json;
  mastra: Json | { error: RegExp };
}
interface Case {
  name: string;
  spans: Rec[];
  rootSpanId?: string;
  bug?: BugCase;
}

const shuffled = <T>(xs: readonly T[]): T[] => [...xs].reverse();

const CASES: Case[] = [
  { name: 'no spans', spans: [] },
  { name: 'agent trace: generation over model steps and chunks, tool call, memory', spans: AGENT_TRACE },
  { name: 'agent trace given in reverse order', spans: shuffled(AGENT_TRACE) },
  { name: 'agent trace from the agent span id', spans: AGENT_TRACE, rootSpanId: 'ag' },
  { name: 'agent trace from the generation span id', spans: AGENT_TRACE, rootSpanId: 'gen' },
  { name: 'agent trace from a model step span id (a noise root)', spans: AGENT_TRACE, rootSpanId: 'step0' },
  { name: 'agent trace from a tool span id', spans: AGENT_TRACE, rootSpanId: 'weather' },
  { name: 'a root span id that is not in the trace falls back to the roots', spans: AGENT_TRACE, rootSpanId: 'nope' },
  { name: 'an empty root span id is no root span id', spans: AGENT_TRACE, rootSpanId: '' },
  { name: 'workflow trace with a nested agent', spans: WORKFLOW_TRACE },
  { name: 'workflow trace from a step span id', spans: WORKFLOW_TRACE, rootSpanId: 'summarize' },
  {
    name: 'tool call fields: entityId, entityName or name; objects, primitives and arrays; success',
    spans: [
      agent('a', null, 0, 100, 'tools-agent'),
      tool('t1', 'a', 10, 20, 'search', { input: { q: 'x' }, output: ['r1', 'r2'] }),
      tool('t2', 'a', 20, 30, 'ignored', { entityId: null, entityName: 'By Name', input: 'plain', output: 42 }),
      rec('t3', 'tool_call', 'a', 30, 40, { name: "tool: 'nameOnly'", input: null, output: null, attributes: { success: 'yes' } }),
      tool('t4', 'a', 40, 50, 'failing', { attributes: { toolType: 'tool', success: false }, error: { message: 'boom', name: 'Error' } }),
      tool('t5', 'a', 50, 60, 'noAttrs', { attributes: null, output: { ok: true } }),
      tool('t6', 'a', 60, 70, 'falsy', { input: 0, output: false }),
    ],
  },
  {
    name: 'a failed tool without a success attribute',
    spans: [agent('a', null, 0, 100, 'x'), tool('t', 'a', 10, 20, 'lookup', { attributes: { toolType: 'tool' }, error: { message: 'timeout', name: 'Error' } })],
  },
  {
    name: 'MCP and provider tool calls',
    spans: [
      agent('a', null, 0, 100, 'mcp-agent'),
      rec('m1', 'mcp_tool_call', 'a', 10, 20, { name: "mcp tool: 'files_read'", entityId: 'files_read', input: { path: '/a' }, output: { content: 'hi' }, attributes: { mcpServer: 'filesystem', serverVersion: '1.0.0', success: true } }),
      rec('m2', 'mcp_tool_call', 'a', 20, 30, { name: 'mcp: search', entityName: 'search', attributes: { mcpServer: 7, success: false } }),
      rec('p1', 'provider_tool_call', 'a', 30, 40, { name: "provider tool: 'web_search'", entityId: 'web_search', input: { query: 'q' }, output: [{ url: 'u' }], attributes: { toolType: 'provider-tool', toolCallId: 'srvtoolu_1', success: true } }),
    ],
  },
  {
    name: 'model generation fields present, absent and of the wrong type',
    spans: [
      agent('a', null, 0, 100, 'x'),
      gen('g1', 'a', 10, 20),
      gen('g2', 'a', 20, 30, { attributes: { model: 42, usage: null, finishReason: 7 } }),
      gen('g3', 'a', 30, 40, { attributes: null }),
      gen('g4', 'a', 40, 50, { attributes: { model: 'claude', usage: { inputTokens: 5 } } }),
    ],
  },
  {
    name: 'nested agents: a tool that runs a sub-agent',
    spans: [
      agent('sup', null, 0, 1000, 'support-agent'),
      gen('g1', 'sup', 10, 100),
      tool('ask', 'sup', 100, 800, 'askBillingAgent', { input: { question: 'invoice?' }, output: { answer: 'paid' } }),
      agent('bill', 'ask', 110, 790, 'billing-agent'),
      gen('g2', 'bill', 120, 300),
      rec('s2', 'model_step', 'g2', 120, 300, { name: 'step: 0' }),
      tool('inv', 's2', 200, 290, 'getInvoice', { input: { id: 'I-1' }, output: { status: 'paid' } }),
      gen('g3', 'sup', 800, 990),
    ],
  },
  {
    name: 'nested agents from the sub-agent span id',
    spans: [agent('sup', null, 0, 1000, 'support-agent'), tool('ask', 'sup', 100, 800, 'askBillingAgent'), agent('bill', 'ask', 110, 790, 'billing-agent'), gen('g2', 'bill', 120, 300)],
    rootSpanId: 'bill',
  },
  {
    name: 'a nested workflow run inside an agent',
    spans: [agent('a', null, 0, 500, 'planner'), tool('t', 'a', 10, 400, 'runFlow'), rec('w', 'workflow_run', 't', 20, 390, { name: 'workflow run: sub', entityId: 'sub-flow' }), wfStep('only', 'w', 30, 380, { output: [1, 2] })],
  },
  {
    name: 'workflow control flow without attributes, and Mastra noise types',
    spans: [
      rec('wf', 'workflow_run', null, 0, 100, { entityId: 'flow' }),
      rec('c', 'workflow_conditional', 'wf', 10, 20),
      rec('ce', 'workflow_conditional_eval', 'c', 11, 12),
      wfStep('then', 'c', 13, 19),
      rec('p', 'workflow_parallel', 'wf', 20, 40),
      rec('l', 'workflow_loop', 'wf', 40, 60),
      rec('s', 'workflow_sleep', 'wf', 60, 70),
      rec('w', 'workflow_wait_event', 'wf', 70, 80),
      rec('pr', 'processor_run', 'wf', 80, 85),
      rec('gen', 'generic', 'wf', 85, 90),
      wfStep('inGeneric', 'gen', 86, 89),
      rec('sr', 'scorer_run', 'wf', 90, 95),
      rec('ss', 'scorer_step', 'sr', 91, 92),
      rec('sk', 'skill_resolution', 'wf', 95, 96),
    ],
  },
  {
    name: 'span types Mastra does not map: their children take their place',
    spans: [
      agent('a', null, 0, 500, 'rag-agent'),
      rec('mem', 'memory_operation', 'a', 5, 10, { attributes: { operationType: 'recall' } }),
      rec('rag', 'rag_vector_operation', 'a', 10, 50),
      rec('emb', 'rag_embedding', 'rag', 11, 20),
      tool('inner', 'rag', 20, 40, 'rerank'),
      rec('ws', 'workspace_action', 'a', 50, 60),
      rec('map', 'mapping', 'a', 60, 70),
      rec('cli', 'client_tool_call', 'a', 70, 80, { entityId: 'confirm' }),
      rec('srv', 'mcp_server_request', 'a', 80, 90, { attributes: { mcpMethod: 'tools/call', mcpServer: 's' } }),
      rec('sig', 'agent_signal', 'a', 90, 90, { isEvent: true }),
      rec('skill', 'skill_action', 'a', 95, 99),
      rec('made-up', 'something_new', 'a', 100, 120),
      gen('g', 'made-up', 101, 119),
    ],
  },
  {
    name: 'missing parents: every span whose parent is absent is a root (in start order)',
    spans: [tool('t1', 'gone', 10, 20, 'first'), gen('g', 'gone', 20, 30), tool('t2', 'also-gone', 30, 40, 'second')],
  },
  {
    name: 'two agent runs as roots are steps themselves',
    spans: [agent('a1', null, 0, 100, 'one'), gen('g1', 'a1', 10, 90), agent('a2', null, 100, 200, 'two'), tool('t2', 'a2', 110, 190, 'x')],
  },
  {
    name: 'a single tool root is a step with its children',
    spans: [tool('t', null, 0, 100, 'outer'), tool('u', 't', 10, 20, 'inner')],
  },
  { name: 'a single generic root', spans: [rec('g', 'generic', null, 0, 50), tool('t', 'g', 10, 20, 'x'), tool('u', 'g', 5, 8, 'y')] },
  {
    name: 'children out of start order at every level',
    spans: [
      agent('a', null, 0, 1000, 'x'),
      tool('late', 'a', 900, 950, 'late'),
      gen('mid', 'a', 500, 600),
      tool('early', 'a', 100, 200, 'early'),
      tool('c2', 'mid', 580, 590, 'second'),
      tool('c1', 'mid', 510, 520, 'first'),
    ],
  },
  {
    name: 'equal start times keep the input order',
    spans: [agent('a', null, 0, 100, 'x'), tool('b', 'a', 10, 30, 'b'), tool('c', 'a', 10, 20, 'c'), tool('d', 'a', 10, 15, 'd')],
  },
  {
    name: 'running spans: no durations',
    spans: [agent('a', null, 0, null, 'x'), gen('g', 'a', 10, null), tool('t', 'g', 20, 30, 'done'), tool('u', 'g', 30, null, 'running')],
  },
  { name: 'an agent root without children', spans: [agent('a', null, 0, 250, 'idle')] },
  { name: 'an agent run that failed', spans: [agent('a', null, 0, 100, 'x', { error: { message: 'model overloaded', name: 'APICallError' } }), gen('g', 'a', 10, 90, { error: { message: 'overloaded' } })] },
  {
    name: 'parentSpanId null, undefined and empty are roots',
    spans: [rec('r1', 'tool_call', null, 0, 10), { ...rec('r2', 'tool_call', null, 10, 20), parentSpanId: undefined }, rec('r3', 'tool_call', '', 20, 30)],
  },
  { name: 'an end before the start gives a negative duration', spans: [agent('a', null, 0, 100, 'x'), tool('t', 'a', 50, 40, 'clock-skew')] },
  {
    name: 'spans of two traces are read as one list',
    spans: [agent('a', null, 0, 100, 'x'), { ...agent('b', null, 200, 300, 'y'), traceId: 'trace-2' }, { ...tool('t', 'b', 210, 220, 'z'), traceId: 'trace-2' }],
  },
  { name: 'step metadata objects are carried', spans: [agent('a', null, 0, 100, 'x'), tool('t', 'a', 10, 20, 'y', { metadata: { runId: 'r-1', tags: ['a'] } }), gen('g', 'a', 30, 40, { metadata: {} })] },
  {
    name: 'workflow steps: output objects, primitives, arrays and none',
    spans: [rec('wf', 'workflow_run', null, 0, 100, { entityId: 'f' }), wfStep('s1', 'wf', 10, 20, { output: { a: 1 } }), wfStep('s2', 'wf', 20, 30, { output: 'done' }), wfStep('s3', 'wf', 30, 40, { output: null }), wfStep('s4', 'wf', 40, 50, { output: [] })],
  },

  // Documented Mastra bugs: each side must give the value written here.
  {
    name: 'bug: documented control-flow and processor fields',
    spans: [
      rec('wf', 'workflow_run', null, 0, 90, { name: "workflow run: 'order-flow'", entityId: 'order-flow' }),
      rec('c', 'workflow_conditional', 'wf', 10, 20, { name: 'conditional', attributes: { conditionCount: 2, truthyIndexes: [1], selectedSteps: ['ship'] } }),
      rec('ce', 'workflow_conditional_eval', 'c', 11, 12, { name: 'condition 1' }),
      wfStep('ship', 'c', 13, 19, { output: { shipped: true } }),
      rec('p', 'workflow_parallel', 'wf', 20, 40, { name: 'parallel', attributes: { branchCount: 2, parallelSteps: ['a', 'b'] } }),
      wfStep('a', 'p', 21, 30, { output: 'A' }),
      wfStep('b', 'p', 21, 35),
      rec('l', 'workflow_loop', 'wf', 40, 60, { name: "loop: 'dountil'", attributes: { loopType: 'dountil', totalIterations: 3 } }),
      rec('s', 'workflow_sleep', 'wf', 60, 70, { name: 'sleep: 10ms', attributes: { durationMs: 10, sleepType: 'fixed' } }),
      rec('w', 'workflow_wait_event', 'wf', 70, 80, { name: "waitForEvent: 'approved'", attributes: { eventName: 'approved', timeoutMs: 1000, eventReceived: true } }),
      rec('pr', 'processor_run', 'wf', 80, 85, { name: 'output processor: pii-filter', entityType: 'output_processor', entityId: 'pii-filter' }),
    ],
    bug: {
      doc: 'the fields its reference documents for `workflow_conditional`',
      ours: {
        totalDurationMs: 90,
        steps: [
          { stepType: 'workflow_conditional', name: 'conditional', durationMs: 10, conditionCount: 2, selectedSteps: ['ship'], children: [{ stepType: 'workflow_step', name: 'ship', stepId: 'ship', durationMs: 6, output: { shipped: true } }] },
          {
            stepType: 'workflow_parallel',
            name: 'parallel',
            durationMs: 20,
            branchCount: 2,
            parallelSteps: ['a', 'b'],
            children: [
              { stepType: 'workflow_step', name: 'a', stepId: 'a', durationMs: 9, output: { value: 'A' } },
              { stepType: 'workflow_step', name: 'b', stepId: 'b', durationMs: 14 },
            ],
          },
          { stepType: 'workflow_loop', name: "loop: 'dountil'", durationMs: 20, loopType: 'dountil', totalIterations: 3 },
          { stepType: 'workflow_sleep', name: 'sleep: 10ms', durationMs: 10, sleepDurationMs: 10, sleepType: 'fixed' },
          { stepType: 'workflow_wait_event', name: "waitForEvent: 'approved'", durationMs: 10, eventName: 'approved', eventReceived: true },
          { stepType: 'processor_run', name: 'output processor: pii-filter', durationMs: 5, processorId: 'pii-filter' },
        ],
      },
      mastra: {
        totalDurationMs: 90,
        steps: [
          { stepType: 'workflow_conditional', name: 'conditional', durationMs: 10, children: [{ stepType: 'workflow_step', name: 'ship', stepId: 'ship', durationMs: 6, output: { shipped: true } }] },
          {
            stepType: 'workflow_parallel',
            name: 'parallel',
            durationMs: 20,
            children: [
              { stepType: 'workflow_step', name: 'a', stepId: 'a', durationMs: 9, output: { value: 'A' } },
              { stepType: 'workflow_step', name: 'b', stepId: 'b', durationMs: 14 },
            ],
          },
          { stepType: 'workflow_loop', name: "loop: 'dountil'", durationMs: 20 },
          { stepType: 'workflow_sleep', name: 'sleep: 10ms', durationMs: 10 },
          { stepType: 'workflow_wait_event', name: "waitForEvent: 'approved'", durationMs: 10 },
          { stepType: 'processor_run', name: 'output processor: pii-filter', durationMs: 5 },
        ],
      },
    },
  },
  {
    name: 'bug: roots out of start order',
    spans: [tool('x', 'gone', 50, 60, 'second'), tool('y', 'gone', 10, 20, 'first')],
    bug: {
      doc: 'roots (spans whose parent is not in the list) in input order',
      ours: { steps: [{ stepType: 'tool_call', name: 'first', durationMs: 10, success: true }, { stepType: 'tool_call', name: 'second', durationMs: 10, success: true }] },
      mastra: { steps: [{ stepType: 'tool_call', name: 'second', durationMs: 10, success: true }, { stepType: 'tool_call', name: 'first', durationMs: 10, success: true }] },
    },
  },
  {
    name: 'bug: a parentSpanId cycle through the chosen root',
    spans: [agent('a', 'b', 0, 100, 'loop-agent'), tool('b', 'a', 10, 20, 'lookup')],
    rootSpanId: 'a',
    bug: {
      doc: 'a `parentSpanId` cycle',
      ours: { totalDurationMs: 100, steps: [{ stepType: 'tool_call', name: 'lookup', durationMs: 10, success: true }] },
      mastra: { error: /Maximum call stack size exceeded/ },
    },
  },
  {
    name: 'bug: a span that is its own parent, chosen as root',
    spans: [wfStep('self', 'self', 0, 30, { output: { ok: 1 } })],
    rootSpanId: 'self',
    bug: {
      doc: 'a `parentSpanId` cycle',
      ours: { totalDurationMs: 30, steps: [{ stepType: 'workflow_step', name: 'self', stepId: 'self', durationMs: 30, output: { ok: 1 } }] },
      mastra: { error: /Maximum call stack size exceeded/ },
    },
  },
  {
    name: 'bug: a span id given twice (the running record, then the ended one)',
    spans: [agent('a', null, 0, 100, 'x'), tool('t', 'a', 10, null, 'search', { input: { q: 'a' } }), tool('t', 'a', 10, 40, 'search', { input: { q: 'a' }, output: { hits: 3 } })],
    bug: {
      doc: 'the same `spanId` twice',
      ours: { totalDurationMs: 100, steps: [{ stepType: 'tool_call', name: 'search', durationMs: 30, toolArgs: { q: 'a' }, toolResult: { hits: 3 }, success: true }] },
      mastra: {
        totalDurationMs: 100,
        steps: [
          { stepType: 'tool_call', name: 'search', durationMs: 30, toolArgs: { q: 'a' }, toolResult: { hits: 3 }, success: true },
          { stepType: 'tool_call', name: 'search', durationMs: 30, toolArgs: { q: 'a' }, toolResult: { hits: 3 }, success: true },
        ],
      },
    },
  },
  {
    name: 'bug: metadata null',
    spans: [agent('a', null, 0, 100, 'x'), tool('t', 'a', 10, 20, 'y', { metadata: null })],
    bug: {
      doc: '`metadata: null`',
      ours: { totalDurationMs: 100, steps: [{ stepType: 'tool_call', name: 'y', durationMs: 10, success: true }] },
      mastra: { totalDurationMs: 100, steps: [{ stepType: 'tool_call', name: 'y', durationMs: 10, success: true, metadata: null }] },
    },
  },
  {
    name: 'bug: token counts that are not numbers',
    spans: [agent('a', null, 0, 100, 'x'), gen('g', 'a', 10, 20, { attributes: { model: 'm', usage: { inputTokens: '120', outputTokens: '30' } } })],
    bug: {
      doc: 'token counts that are not numbers',
      ours: { totalDurationMs: 100, steps: [{ stepType: 'model_generation', name: "llm: 'gpt-4o-mini'", durationMs: 10, modelId: 'm' }] },
      mastra: { totalDurationMs: 100, steps: [{ stepType: 'model_generation', name: "llm: 'gpt-4o-mini'", durationMs: 10, modelId: 'm', promptTokens: '120', completionTokens: '30' }] },
    },
  },
];

/** The records as Mastra's store returns them: times as Dates. */
function asStored(spans: readonly Rec[]): SpanRecord[] {
  return spans.map((s) => {
    const r: Rec = { ...s };
    for (const f of ['startedAt', 'endedAt']) if (typeof r[f] === 'string') r[f] = new Date(r[f]);
    return r as SpanRecord;
  });
}

type Outcome = { value: unknown } | { error: string };

function ours(c: Case): Outcome {
  try {
    return { value: JSON.parse(JSON.stringify(extractTrajectoryFromTrace(asStored(c.spans), c.rootSpanId))) as unknown };
  } catch (err) {
    return { error: String((err as Error).message ?? err) };
  }
}

/** JSON with object keys sorted: equal values give equal text whatever the order their keys were set in. */
function canonical(v: unknown): string {
  const sort = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(sort) : x !== null && typeof x === 'object' ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort((x as Rec)[k])])) : x;
  return JSON.stringify(sort(v));
}

const unsupported = referenceUnsupported();

describe.skipIf(unsupported !== undefined)(`extractTrajectoryFromTrace: tracejudge and @mastra/core agree${unsupported ? ` (skipped: ${unsupported})` : ''}`, () => {
  let mastra: Outcome[] = [];
  beforeAll(async () => {
    mastra = await runReference<Outcome[]>(SCRIPT, CASES.map((c) => ({ spans: c.spans, rootSpanId: c.rootSpanId })), { timeoutMs: 120_000 });
  }, 300_000);

  it('has a case for every span type Mastra maps, and most cases are not bugs', () => {
    const types = new Set(CASES.flatMap((c) => c.spans.map((s) => s.spanType)));
    for (const t of ['agent_run', 'model_generation', 'model_step', 'model_inference', 'model_chunk', 'tool_call', 'mcp_tool_call', 'provider_tool_call', 'workflow_run', 'workflow_step', 'workflow_conditional', 'workflow_conditional_eval', 'workflow_parallel', 'workflow_loop', 'workflow_sleep', 'workflow_wait_event', 'processor_run', 'generic', 'scorer_run', 'skill_resolution']) {
      expect(types.has(t), t).toBe(true);
    }
    expect(mastra).toHaveLength(CASES.length);
    expect(CASES.filter((c) => !c.bug).length).toBeGreaterThanOrEqual(30);
  });

  const equalCases = CASES.map((c, i) => ({ c, i })).filter(({ c }) => !c.bug);
  it.each(equalCases.map(({ c, i }) => [c.name, i] as const))('same trajectory: %s', (_name, i) => {
    const c = CASES[i] as Case;
    const m = mastra[i] as Outcome;
    expect('error' in m ? m : undefined, 'Mastra answered').toBeUndefined();
    const o = ours(c);
    expect(canonical(o)).toBe(canonical(m));
  });

  const bugCases = CASES.map((c, i) => ({ c, i })).filter(({ c }) => c.bug);
  it.each(bugCases.map(({ c, i }) => [c.name, i] as const))('documented Mastra bug, %s', (_name, i) => {
    const c = CASES[i] as Case;
    const bug = c.bug as BugCase;
    const m = mastra[i] as Outcome;
    if ('error' in bug.mastra && bug.mastra.error instanceof RegExp) {
      expect('error' in m, 'Mastra throws').toBe(true);
      expect((m as { error: string }).error).toMatch(bug.mastra.error);
    } else {
      expect(canonical(m)).toBe(canonical({ value: bug.mastra }));
    }
    expect(canonical(ours(c))).toBe(canonical({ value: bug.ours }));
  });

  it('every bug met here is listed in docs/mastra-compat.md', () => {
    const doc = readFileSync(COMPAT_DOC, 'utf8');
    for (const { c } of bugCases) expect(doc, c.name).toContain(c.bug?.doc);
  });
});
