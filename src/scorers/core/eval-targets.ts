/**
 * The targets of `runEvals` (docs/mastra-compat.md): a function, an Agent-like object or a Workflow-like object,
 * recognised by shape because `@mastra/core` is not a dependency. Each turns a data item into what the scorers
 * see (`input`, `output`) and what `onItemComplete` receives (`targetResult`), as Mastra's `runEvals` does.
 */
import type { RunMessage, SystemMessage } from '../../model/agent-run.js';
import { agentInput, assistantMessage, systemMessage, textMessage, userMessage } from '../../model/messages.js';
import { evalsFailure, evalsUsage } from './errors.js';

/** A target function: the item's input (and the item) in, the output to score out. */
export type TargetFunction<I> = (input: unknown, item: I) => unknown;

/**
 * An Agent as `runEvals` uses it: `generate(input, options)` resolving to Mastra's result, whose
 * `scoringData: { input, output }` (sent with `returnScorerData: true`) is what the scorers see. A result without
 * `scoringData` is scored from the item's input and the result's `text`.
 */
export interface AgentTarget {
  generate(input: unknown, options?: Record<string, unknown>): unknown;
}

/** A Workflow run: `start({ inputData, ... })` resolves to `{ status, result?, steps?, stepExecutionPath? }`. */
export interface WorkflowRunLike {
  start(args: Record<string, unknown>): unknown;
}

/** A Workflow as `runEvals` uses it: `createRunAsync()` (Mastra 0.x) or `createRun()` (sync or async). */
export interface WorkflowTarget {
  createRunAsync?(options?: Record<string, unknown>): unknown;
  createRun?(options?: Record<string, unknown>): unknown;
}

export type EvalTarget<I> = TargetFunction<I> | AgentTarget | WorkflowTarget;

export type TargetKind = 'function' | 'agent' | 'workflow';

/** A workflow step's result as Mastra records it in `result.steps[stepId]`. */
export interface WorkflowStepResult {
  status?: string;
  payload?: unknown;
  output?: unknown;
  startedAt?: number;
  endedAt?: number;
  metadata?: Record<string, unknown>;
}

/** What a target produced for one item. */
export interface TargetOutcome {
  /** The scorers' `run.input`. */
  input: unknown;
  /** The scorers' `run.output`. */
  output: unknown;
  /** What `onItemComplete` receives as `targetResult`: the function's value, the agent or workflow result. */
  targetResult: unknown;
  /** Step results of a workflow run, for `scorers.steps` and `scorers.trajectory`. */
  workflow?: { steps: Record<string, WorkflowStepResult>; stepExecutionPath?: string[] };
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A short description of a value's type for error messages. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`;
}

/**
 * Which kind of target `target` is. Throws a `TJ_USAGE` error naming `target` for anything else.
 *
 * @example
 * ```ts
 * targetKind({ generate: async () => ({ text: 'hi' }) }); // 'agent'
 * ```
 */
export function targetKind(target: unknown): TargetKind {
  if (typeof target === 'function') return 'function';
  if (isObj(target)) {
    const t = target;
    if (typeof t.createRunAsync === 'function' || typeof t.createRun === 'function') return 'workflow';
    if (typeof t.generate === 'function') return 'agent';
  }
  throw evalsUsage(
    'target',
    `must be a function, an Agent (an object with generate()) or a Workflow (an object with createRun() or createRunAsync()), got ${describeValue(target)}`,
    'RUN_EXPERIMENT_INVALID_TARGET',
  );
}

function isRunMessage(v: unknown): v is RunMessage {
  return isObj(v) && typeof v.role === 'string' && isObj(v.content) && Array.isArray(v.content.parts);
}

function isTextMessage(v: unknown): v is { role: string; content: string } {
  return isObj(v) && (v.role === 'user' || v.role === 'assistant' || v.role === 'system') && typeof v.content === 'string';
}

/**
 * The scorers' input for an item's `input` when no Agent builds it, as Mastra's agents do: a string is one user
 * message, an array of strings and/or `{ role, content: string }` messages (or Mastra messages) is the input
 * messages (system ones become `systemMessages`). Anything else is passed as is.
 *
 * @example
 * ```ts
 * scorerInputOf('What is AI?'); // { inputMessages: [userMessage('What is AI?')], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} }
 * ```
 */
export function scorerInputOf(input: unknown): unknown {
  if (typeof input === 'string') return agentInput(input);
  if (!Array.isArray(input) || input.length === 0) return input;
  if (!input.every((m) => typeof m === 'string' || isTextMessage(m) || isRunMessage(m))) return input;
  const inputMessages: RunMessage[] = [];
  const systemMessages: SystemMessage[] = [];
  input.forEach((m: unknown, i) => {
    const id = `msg-${i}`;
    if (typeof m === 'string') inputMessages.push(userMessage(m, { id }));
    else if (isRunMessage(m)) inputMessages.push(m);
    else if (isTextMessage(m)) {
      if (m.role === 'system') systemMessages.push(systemMessage(m.content));
      else inputMessages.push(textMessage(m.role as RunMessage['role'], m.content, { id }));
    }
  });
  return agentInput({ inputMessages, systemMessages });
}

/** Runs one item through a target. */
export interface TargetCall<I> {
  kind: TargetKind;
  target: EvalTarget<I>;
  item: I & { input?: unknown; requestContext?: unknown; startOptions?: unknown };
  index: number;
  targetOptions: Record<string, unknown> | undefined;
}

/**
 * Produce the scorers' input and output for one item. Rejects with a `TJ_SCORER_FAILED` error naming `target`
 * when the target throws, and a `TJ_USAGE` error when it returns something of the wrong shape.
 */
export async function runTarget<I>(call: TargetCall<I>): Promise<TargetOutcome> {
  switch (call.kind) {
    case 'function':
      return runFunction(call);
    case 'agent':
      return runAgent(call);
    case 'workflow':
      return runWorkflow(call);
  }
}

const TARGET_FAILED = 'RUN_EXPERIMENT_TARGET_FAILED_TO_GENERATE_RESULT';

async function runFunction<I>({ target, item, index }: TargetCall<I>): Promise<TargetOutcome> {
  let output: unknown;
  try {
    output = await (target as TargetFunction<I>)(item.input, item);
  } catch (err) {
    throw evalsFailure('target', `target failed on data[${index}]`, err, TARGET_FAILED);
  }
  return { input: scorerInputOf(item.input), output, targetResult: output };
}

async function runAgent<I>({ target, item, index, targetOptions }: TargetCall<I>): Promise<TargetOutcome> {
  const options: Record<string, unknown> = { ...targetOptions, scorers: {}, returnScorerData: true };
  if (item.requestContext !== undefined) options.requestContext = item.requestContext;
  let result: unknown;
  try {
    result = await (target as AgentTarget).generate(item.input, options);
  } catch (err) {
    throw evalsFailure('target', `target.generate() failed on data[${index}]`, err, TARGET_FAILED);
  }
  if (!isObj(result)) throw evalsUsage('target', `generate() resolved to ${describeValue(result)} on data[${index}], not an agent result object`, TARGET_FAILED);
  const scoring = isObj(result.scoringData) ? result.scoringData : undefined;
  const input = scoring && scoring.input !== undefined ? scoring.input : scorerInputOf(item.input);
  let output: unknown;
  if (scoring && scoring.output !== undefined) output = scoring.output;
  else if (typeof result.text === 'string') output = [assistantMessage(result.text, [], { id: `msg-out-${index}` })];
  else throw evalsUsage('target', `generate() result on data[${index}] has neither scoringData.output nor text`, TARGET_FAILED);
  return { input, output, targetResult: result };
}

async function runWorkflow<I>({ target, item, index, targetOptions }: TargetCall<I>): Promise<TargetOutcome> {
  const wf = target as WorkflowTarget;
  const create = typeof wf.createRunAsync === 'function' ? 'createRunAsync' : 'createRun';
  let run: unknown;
  try {
    run = await (wf[create] as (o: Record<string, unknown>) => unknown).call(wf, { disableScorers: true });
  } catch (err) {
    throw evalsFailure('target', `target.${create}() failed on data[${index}]`, err, TARGET_FAILED);
  }
  if (!isObj(run) || typeof run.start !== 'function') {
    throw evalsUsage('target', `${create}() resolved to ${describeValue(run)} without a start() function`, TARGET_FAILED);
  }
  const args: Record<string, unknown> = { ...targetOptions, ...(isObj(item.startOptions) ? item.startOptions : {}), inputData: item.input };
  if (item.requestContext !== undefined) args.requestContext = item.requestContext;
  let result: unknown;
  try {
    result = await (run as unknown as WorkflowRunLike).start(args);
  } catch (err) {
    throw evalsFailure('target', `workflow run.start() failed on data[${index}]`, err, TARGET_FAILED);
  }
  if (!isObj(result)) throw evalsUsage('target', `run.start() resolved to ${describeValue(result)} on data[${index}], not a workflow result`, TARGET_FAILED);
  const steps = isObj(result.steps) ? (result.steps as Record<string, WorkflowStepResult>) : {};
  const path = Array.isArray(result.stepExecutionPath) ? result.stepExecutionPath.filter((s): s is string => typeof s === 'string') : undefined;
  return {
    input: item.input,
    output: result.status === 'success' ? result.result : undefined,
    targetResult: result,
    workflow: path ? { steps, stepExecutionPath: path } : { steps },
  };
}
