/**
 * `extractTrajectoryFromTrace` of `@mastra/core/evals`: a run's {@link Trajectory} from the span records of
 * Mastra's observability store (docs/mastra-compat.md, "extractTrajectoryFromTrace").
 *
 * The records form a tree through `parentSpanId`; each span becomes a step by its `spanType`, with the steps of
 * its child spans as `children`, siblings in `startedAt` order (ties keep the input order). Span types that are
 * not steps (`model_step`, `model_chunk`, `generic`, memory and RAG operations, …) give way to their children,
 * which take their place. Where Mastra's own function has a bug, this one does not copy it (the documented
 * control-flow fields are filled in, roots are ordered too, cycles are cut): the differences are listed in
 * docs/mastra-compat.md, "Parity".
 */
import { ErrorCodes, TracejudgeError } from '../../errors.js';
import type { Span } from '../../model/span.js';
import type { Trajectory, TrajectoryStep } from '../utils/trajectory-types.js';
import { trajectoryFromSpans } from './from-trace.js';
import { isOtelSpan, isSpanRecord, recordTimeMs, type SpanRecord } from './span-record.js';

type StepOf<T extends TrajectoryStep['stepType']> = Extract<TrajectoryStep, { stepType: T }>;

interface Node {
  record: SpanRecord;
  startMs: number | undefined;
  children: Node[];
}

/** A root of one of these types stands for the run itself: its children are the top-level steps. */
const RUN_TYPES: ReadonlySet<string> = new Set(['agent_run', 'workflow_run']);

/**
 * Recursion guard: a span tree deeper than this is malformed (real agent traces nest a few dozen levels), and
 * walking it further could exhaust the stack.
 */
const MAX_DEPTH = 512;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((s): s is string => typeof s === 'string') ? v : undefined);

/** Inputs and outputs as the step's record fields: an object as it is, any other value as `{ value }`. */
function asRecord(v: unknown): Record<string, unknown> | undefined {
  if (v === null || v === undefined) return undefined;
  return isObject(v) ? v : { value: v };
}

/** Sets the fields whose value is defined (a step carries no `undefined` properties). */
function assign<T extends object>(target: T, fields: Partial<T>): T {
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) (target as Record<string, unknown>)[k] = v;
  return target;
}

function byStart(a: Node, b: Node): number {
  if (a.startMs === undefined || b.startMs === undefined) return a.startMs === b.startMs ? 0 : a.startMs === undefined ? 1 : -1;
  return a.startMs - b.startMs;
}

function durationMs(r: SpanRecord): number | undefined {
  const start = recordTimeMs(r.startedAt);
  const end = recordTimeMs(r.endedAt);
  return start === undefined || end === undefined ? undefined : end - start;
}

/** The step a span stands for (without its children), or `undefined` for a span that is not a step. */
function stepOf(r: SpanRecord): TrajectoryStep | undefined {
  const attrs = isObject(r.attributes) ? r.attributes : {};
  // A step needs a name: a malformed record without one is named by its id.
  const name = str(r.name) ?? r.spanId;
  const toolName = str(r.entityId) ?? str(r.entityName) ?? name;
  switch (r.spanType) {
    case 'tool_call':
      return assign<StepOf<'tool_call'>>({ stepType: 'tool_call', name: toolName }, { toolArgs: asRecord(r.input), toolResult: asRecord(r.output), success: bool(attrs.success) });
    case 'provider_tool_call':
      return assign<StepOf<'provider_tool_call'>>(
        { stepType: 'provider_tool_call', name: toolName },
        { toolArgs: asRecord(r.input), toolResult: asRecord(r.output), success: bool(attrs.success) },
      );
    case 'mcp_tool_call':
      return assign<StepOf<'mcp_tool_call'>>(
        { stepType: 'mcp_tool_call', name: toolName },
        { toolArgs: asRecord(r.input), toolResult: asRecord(r.output), mcpServer: str(attrs.mcpServer), success: bool(attrs.success) },
      );
    case 'model_generation': {
      const usage = isObject(attrs.usage) ? attrs.usage : {};
      return assign<StepOf<'model_generation'>>(
        { stepType: 'model_generation', name },
        { modelId: str(attrs.model), promptTokens: num(usage.inputTokens), completionTokens: num(usage.outputTokens), finishReason: str(attrs.finishReason) },
      );
    }
    case 'agent_run':
      return assign<StepOf<'agent_run'>>({ stepType: 'agent_run', name }, { agentId: str(r.entityId) });
    case 'workflow_run':
      return assign<StepOf<'workflow_run'>>({ stepType: 'workflow_run', name }, { workflowId: str(r.entityId) });
    case 'workflow_step':
      return assign<StepOf<'workflow_step'>>({ stepType: 'workflow_step', name, stepId: name }, { output: asRecord(r.output) });
    // The control-flow fields below are those Mastra documents for these steps (its reference's span type
    // mapping); Mastra 1.71's function leaves them out (docs/mastra-compat.md, "Parity").
    case 'workflow_conditional':
      return assign<StepOf<'workflow_conditional'>>({ stepType: 'workflow_conditional', name }, { conditionCount: num(attrs.conditionCount), selectedSteps: strings(attrs.selectedSteps) });
    case 'workflow_parallel':
      return assign<StepOf<'workflow_parallel'>>({ stepType: 'workflow_parallel', name }, { branchCount: num(attrs.branchCount), parallelSteps: strings(attrs.parallelSteps) });
    case 'workflow_loop':
      return assign<StepOf<'workflow_loop'>>({ stepType: 'workflow_loop', name }, { loopType: str(attrs.loopType), totalIterations: num(attrs.totalIterations) });
    case 'workflow_sleep':
      return assign<StepOf<'workflow_sleep'>>({ stepType: 'workflow_sleep', name }, { sleepDurationMs: num(attrs.durationMs), sleepType: str(attrs.sleepType) });
    case 'workflow_wait_event':
      return assign<StepOf<'workflow_wait_event'>>({ stepType: 'workflow_wait_event', name }, { eventName: str(attrs.eventName), eventReceived: bool(attrs.eventReceived) });
    case 'processor_run':
      return assign<StepOf<'processor_run'>>({ stepType: 'processor_run', name }, { processorId: str(r.entityId) });
    default:
      // Mastra's noise types (generic, model_step, model_inference, model_chunk, scorer_run, scorer_step,
      // skill_resolution, workflow_conditional_eval) and every type it does not map alike.
      return undefined;
  }
}

/** The steps of `node`: its own step with its children's steps nested, or, for a non-step span, its children's. */
function stepsOf(node: Node, path: Set<Node>): TrajectoryStep[] {
  // A span met again on its own ancestor path (a `parentSpanId` cycle) is left out.
  if (path.has(node) || path.size >= MAX_DEPTH) return [];
  path.add(node);
  const children = node.children.flatMap((c) => stepsOf(c, path));
  path.delete(node);
  const step = stepOf(node.record);
  if (!step) return children;
  const r = node.record;
  return [assign(step, { durationMs: durationMs(r), metadata: isObject(r.metadata) ? r.metadata : undefined, children: children.length > 0 ? children : undefined })];
}

/** The span tree: one node per span id (a later record of the same id replaces an earlier one), roots in start order. */
function buildTree(records: readonly SpanRecord[]): { byId: Map<string, Node>; roots: Node[] } {
  const byId = new Map<string, Node>();
  for (const record of records) byId.set(record.spanId, { record, startMs: recordTimeMs(record.startedAt), children: [] });
  const roots: Node[] = [];
  for (const node of byId.values()) {
    const parentId = node.record.parentSpanId;
    const parent = typeof parentId === 'string' && parentId !== '' ? byId.get(parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  for (const node of byId.values()) node.children.sort(byStart);
  roots.sort(byStart);
  return { byId, roots };
}

function fromRecords(records: readonly SpanRecord[], rootSpanId: string | undefined): Trajectory {
  if (records.length === 0) return { steps: [] };
  const { byId, roots } = buildTree(records);
  const chosen = rootSpanId ? byId.get(rootSpanId) : undefined;
  const targets = chosen ? [chosen] : roots;
  const only = targets.length === 1 ? targets[0] : undefined;
  if (!only) return { steps: targets.flatMap((n) => stepsOf(n, new Set())) };
  const steps = RUN_TYPES.has(only.record.spanType) ? only.children.flatMap((c) => stepsOf(c, new Set([only]))) : stepsOf(only, new Set());
  const total = durationMs(only.record);
  return total === undefined ? { steps } : { steps, totalDurationMs: total };
}

/**
 * The trajectory of a trace, from the span records Mastra's observability store returns
 * (`(await store.getTrace({ traceId })).spans`), as Mastra's `extractTrajectoryFromTrace`.
 *
 * - Root: the span `rootSpanId` when given and present; otherwise (also when it is absent from `spans`) every
 *   span whose parent is not in `spans`. A single `agent_run` or `workflow_run` root stands for the run: its
 *   children are the top-level steps. `totalDurationMs` is the duration of a single root, when it has ended.
 * - Steps by `spanType`: `tool_call`, `mcp_tool_call`, `provider_tool_call` (name = `entityId ?? entityName ??
 *   name`; `toolArgs` / `toolResult` from `input` / `output`, an object as it is and any other value as
 *   `{ value }`; `success` and `mcpServer` from the attributes), `model_generation` (`modelId`, `promptTokens`,
 *   `completionTokens`, `finishReason` from `attributes.model`, `.usage`, `.finishReason`), `agent_run`
 *   (`agentId` = `entityId`), `workflow_run` (`workflowId` = `entityId`), `workflow_step` (`stepId` = name,
 *   `output`), the workflow control-flow types and `processor_run` (with the fields Mastra documents). Every
 *   step has `durationMs` once its span has ended and the record's `metadata`.
 * - Any other span type is not a step: its children take its place. A failed tool is `success: false` only when
 *   its span says so in `attributes.success`, as Mastra writes it.
 *
 * tracejudge extensions: times may be ISO strings or epoch milliseconds as well as `Date`s, a `parentSpanId`
 * cycle is cut, and no field of a record makes it throw (an unreadable time gives no duration, a missing name
 * is the span id). Throws a `TracejudgeError` (TJ_USAGE) naming the argument when `spans` is not an array, an
 * element is not a span record (an object with a string `spanId`), or `rootSpanId` is not a string.
 * `spans` may also be tracejudge's own OTel spans (`Span`, as `extractTraces` and `decodeTraceRequestJson`
 * give them): then it is {@link trajectoryFromSpans}, which reads every instrumentation convention (docs/scorers.md,
 * "Trajectory scorers") and, without `rootSpanId`, starts from the earliest root span.
 *
 * @example
 * ```ts
 * const { spans } = await observabilityStore.getTrace({ traceId });
 * const trajectory = extractTrajectoryFromTrace(spans, agentSpanId);
 * trajectory.steps.map((s) => `${s.stepType}:${s.name}`); // ['model_generation:llm: gpt-4o', …]
 * ```
 */
export function extractTrajectoryFromTrace(spans: readonly SpanRecord[], rootSpanId?: string): Trajectory;
export function extractTrajectoryFromTrace(spans: readonly Span[], rootSpanId?: string): Trajectory;
export function extractTrajectoryFromTrace(spans: readonly (SpanRecord | Span)[], rootSpanId?: string): Trajectory;
export function extractTrajectoryFromTrace(spans: readonly (SpanRecord | Span)[], rootSpanId?: string): Trajectory {
  const items: unknown = spans;
  if (!Array.isArray(items)) {
    const hint = items !== null && typeof items === 'object' && Array.isArray((items as { spans?: unknown }).spans) ? ' (a trace object: pass its .spans)' : '';
    throw new TracejudgeError(ErrorCodes.USAGE, `extractTrajectoryFromTrace: spans must be an array of span records, got ${describe(items)}${hint}`);
  }
  if (rootSpanId !== undefined && typeof rootSpanId !== 'string') {
    throw new TracejudgeError(ErrorCodes.USAGE, `extractTrajectoryFromTrace: rootSpanId must be a string, got ${describe(rootSpanId)}`);
  }
  const root = rootSpanId !== undefined && rootSpanId !== '' ? rootSpanId : undefined;
  if (items.length > 0 && items.every(isOtelSpan)) return trajectoryFromSpans(items, root);
  const bad = items.findIndex((x) => !isSpanRecord(x));
  if (bad >= 0) {
    throw new TracejudgeError(ErrorCodes.USAGE, `extractTrajectoryFromTrace: spans[${bad}] is not a span record (an object with a string spanId), got ${describe(items[bad])}`);
  }
  return fromRecords(items as SpanRecord[], root);
}

/** What a value is, for an error message. */
function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return `an object with keys ${JSON.stringify(Object.keys(v).slice(0, 5))}`;
  const text = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? JSON.stringify(v).slice(0, 40) : undefined;
  return text === undefined ? typeof v : `${typeof v} ${text}`;
}
