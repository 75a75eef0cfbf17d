/**
 * Builds a run's {@link Trajectory} (docs/scorers.md) from its span subtree, whatever convention wrote the
 * spans: every span is read once through the extraction selectors, so an AI SDK `ai.toolCall`, a GenAI
 * `execute_tool`, an OpenInference `TOOL` and a Mastra `tool_call` span all become the same `tool_call` step.
 *
 * Mapping (the reference's `extractTrajectoryFromTrace`, over convention facts instead of Mastra span types):
 * - tool spans → `tool_call` (`mcp_tool_call` / `provider_tool_call` when Mastra says so): name, args,
 *   result (objects as is, other values wrapped `{ value }`), `success` = the span did not fail;
 * - retriever spans → `tool_call` named after the retriever, with `metadata.kind = 'retrieval'`;
 * - LLM spans → `model_generation`: `modelId`, `promptTokens`, `completionTokens`, `finishReason`;
 * - agent spans → `agent_run` with `agentId` and the nested steps as `children`;
 * - workflow spans → `workflow_run`;
 * - every other span is noise: its children are promoted to its parent's level. So are the turns of an
 *   agent's own loop (AI SDK 7 `agent_step`, Mastra `model_step`) and a generation span that wraps
 *   per-call generations (Mastra `model_generation` over `model_inference`): the per-call generations are
 *   the steps, so every convention yields the same shape (the reference keeps the wrapper instead).
 * Siblings are in start order, ties broken by end time then span id (SDKs often stamp start times to the
 * millisecond). When the root is an agent or workflow span, its children are the top-level steps.
 */
import type { Span } from '../../model/span.js';
import { BUILTIN_SELECTORS, readSpan, type SpanInfo } from '../../extract/facts.js';
import type { ConventionSelector } from '../../extract/conventions/types.js';
import { buildSpanTree, byStart, type SpanTree } from '../../extract/tree.js';
import { attrStr } from '../../extract/values.js';
import type { AgentRunContext } from '../../model/agent-run.js';
import type { Trajectory, TrajectoryStep } from '../utils/trajectory-types.js';

/** Options of {@link trajectoryFromSpans}. */
export interface TrajectoryFromTraceOptions {
  /** Selectors to read spans with (default: the built-in conventions; put user mapping selectors first). */
  selectors?: readonly ConventionSelector[];
  /** Depth limit of nesting, guarding against pathological traces (default 64). */
  maxDepth?: number;
}

const NS_PER_MS = 1_000_000n;

function durationMs(span: Span): number | undefined {
  if (span.endTimeUnixNano < span.startTimeUnixNano) return undefined;
  const ns = span.endTimeUnixNano - span.startTimeUnixNano;
  return Number(ns / NS_PER_MS) + Number(ns % NS_PER_MS) / 1e6;
}

function wrap(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? v : { value: v };
}

type StepOf<T extends TrajectoryStep['stepType']> = Extract<TrajectoryStep, { stepType: T }>;

function toolStep(span: Span, info: SpanInfo): TrajectoryStep {
  const tool = info.facts.tool ?? {};
  const mastraType = attrStr(span.attributes, 'mastra.span.type');
  const stepType = mastraType === 'mcp_tool_call' || mastraType === 'provider_tool_call' ? mastraType : 'tool_call';
  const step = { stepType, name: tool.name ?? span.name } as StepOf<'tool_call'>;
  if (tool.args !== undefined) step.toolArgs = wrap(tool.args);
  if (tool.hasResult === true) step.toolResult = wrap(tool.result);
  step.success = info.error === undefined && tool.error === undefined;
  if (info.facts.role === 'retriever') step.metadata = { kind: 'retrieval' };
  return step;
}

function modelStep(span: Span, info: SpanInfo): TrajectoryStep {
  const f = info.facts;
  const step: StepOf<'model_generation'> = { stepType: 'model_generation', name: f.model ?? span.name };
  if (f.model !== undefined) step.modelId = f.model;
  if (f.usage?.inputTokens !== undefined) step.promptTokens = f.usage.inputTokens;
  if (f.usage?.outputTokens !== undefined) step.completionTokens = f.usage.outputTokens;
  const finish = f.output?.findLast((m) => m.finishReason !== undefined)?.finishReason;
  if (finish !== undefined) step.finishReason = finish;
  return step;
}

/** One turn of an agent's own loop (AI SDK 7 `agent_step`, Mastra `model_step`): noise, not a workflow. */
function isLoopStep(span: Span): boolean {
  return attrStr(span.attributes, 'gen_ai.operation.name') === 'agent_step' || attrStr(span.attributes, 'mastra.span.type') === 'model_step';
}

/** The step a span stands for, or undefined for a noise span. */
function stepOf(span: Span, info: SpanInfo): TrajectoryStep | undefined {
  switch (info.facts.role) {
    case 'tool':
    case 'retriever':
      return toolStep(span, info);
    case 'llm':
      return modelStep(span, info);
    case 'agent': {
      const step: StepOf<'agent_run'> = { stepType: 'agent_run', name: info.facts.agentName ?? span.name };
      if (info.facts.agentName !== undefined) step.agentId = info.facts.agentName;
      return step;
    }
    case 'workflow': {
      if (isLoopStep(span)) return undefined;
      const step: StepOf<'workflow_run'> = { stepType: 'workflow_run', name: span.name, workflowId: span.name };
      if (info.error !== undefined) step.status = 'failed';
      return step;
    }
    default:
      return undefined;
  }
}

class Builder {
  readonly #infos = new Map<string, SpanInfo>();
  constructor(
    readonly tree: SpanTree,
    readonly selectors: readonly ConventionSelector[],
    readonly maxDepth: number,
  ) {}

  info(span: Span): SpanInfo {
    let i = this.#infos.get(span.spanId);
    if (!i) this.#infos.set(span.spanId, (i = readSpan(span, this.tree, this.selectors)));
    return i;
  }

  /** Steps under `span` (its children, with noise spans flattened), in start order. */
  stepsUnder(span: Span, depth: number): TrajectoryStep[] {
    const out: TrajectoryStep[] = [];
    if (depth > this.maxDepth) return out;
    const kids = [...this.tree.children(span.spanId)].sort(byStart);
    for (const child of kids) out.push(...this.stepsFor(child, depth + 1));
    return out;
  }

  stepsFor(span: Span, depth: number): TrajectoryStep[] {
    const step = stepOf(span, this.info(span));
    const inner = this.stepsUnder(span, depth);
    if (!step) return inner;
    // A generation span wrapping per-call generations (Mastra `model_generation` over `model_inference`)
    // is a grouping: its calls are the steps, so every convention yields the same shape.
    if (step.stepType === 'model_generation' && inner.some((s) => s.stepType === 'model_generation')) return inner;
    const d = durationMs(span);
    if (d !== undefined) step.durationMs = d;
    if (inner.length > 0) step.children = inner;
    return [step];
  }
}

/**
 * The trajectory of the span subtree rooted at `rootSpanId` (default: the earliest top-level span).
 * `spans` may hold the whole trace: only the root's descendants are read. Never throws on span content.
 *
 * @example
 * ```ts
 * const t = trajectoryFromSpans(trace.spans, agentSpanId);
 * t.steps.map((s) => `${s.stepType}:${s.name}`); // ['model_generation:gpt-4o', 'tool_call:getWeather', …]
 * ```
 */
export function trajectoryFromSpans(spans: readonly Span[], rootSpanId?: string, options: TrajectoryFromTraceOptions = {}): Trajectory {
  const first = rootSpanId === undefined ? undefined : spans.find((s) => s.spanId === rootSpanId);
  const traceId = first?.traceId ?? spans[0]?.traceId;
  if (traceId === undefined) return { steps: [] };
  const tree = buildSpanTree(traceId, spans);
  const root = rootSpanId === undefined ? tree.roots[0] : tree.byId.get(rootSpanId);
  if (!root) return { steps: [] };
  const b = new Builder(tree, options.selectors ?? BUILTIN_SELECTORS, options.maxDepth ?? 64);
  const rootStep = stepOf(root, b.info(root));
  const total = durationMs(root);
  const steps =
    rootStep === undefined || rootStep.stepType === 'agent_run' || rootStep.stepType === 'workflow_run'
      ? b.stepsUnder(root, 0)
      : b.stepsFor(root, 0);
  return total === undefined ? { steps } : { steps, totalDurationMs: total };
}

/**
 * The trajectory of an extracted agent run. Pass the whole trace's spans as `traceSpans` to include nested
 * agent runs (extraction gives each agent its own run, so `context.spans` stops at a nested agent span).
 *
 * @example
 * ```ts
 * createPipeline({ …, trajectoryOf: (ctx) => trajectoryFromRun(ctx) });
 * ```
 */
export function trajectoryFromRun(
  context: Pick<AgentRunContext, 'span' | 'spans'>,
  traceSpans?: readonly Span[],
  options: TrajectoryFromTraceOptions = {},
): Trajectory {
  return trajectoryFromSpans(traceSpans ?? context.spans, context.span.spanId, options);
}
