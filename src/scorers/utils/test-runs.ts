/**
 * Builders of scorer runs for tests, as `@mastra/evals/scorers/utils` has them (docs/mastra-compat.md, "Scorer
 * utilities"): `createTestMessage`, `createToolInvocation`, `createAgentTestRun`, `createTrajectoryTestRun`,
 * `createTestRun`, and the reader `getReasoningFromRunOutput`. The shapes are Mastra's, so a test written against
 * Mastra's utilities builds the same runs here.
 */
import { randomUUID } from 'node:crypto';
import type { MessagePart, RunMessage, SystemMessage, ToolInvocation } from '../../model/agent-run.js';
import type { Trajectory } from './trajectory-types.js';

/** What `createToolInvocation` takes: `state` defaults to `'result'`. */
export interface TestToolInvocationOptions {
  toolCallId: string;
  toolName: string;
  args?: unknown;
  result?: unknown;
  state?: ToolInvocation['state'];
  errorText?: string;
  isError?: boolean;
}

/**
 * A tool invocation: the fields given, `state` `'result'` unless said otherwise; `errorText` and `isError` only
 * when given.
 *
 * @example
 * ```ts
 * createToolInvocation({ toolCallId: 'c1', toolName: 'weatherTool', args: { city: 'London' }, result: { temp: 20 } });
 * ```
 */
export function createToolInvocation(options: TestToolInvocationOptions): ToolInvocation {
  const { toolCallId, toolName, args, result, state = 'result', errorText, isError } = options;
  const inv: ToolInvocation = { toolCallId, toolName, args, result, state };
  if (errorText !== undefined) inv.errorText = errorText;
  if (isError !== undefined) inv.isError = isError;
  return inv;
}

/** What `createTestMessage` takes. */
export interface TestMessageOptions {
  content: string;
  role: RunMessage['role'];
  /** Default `'test-message'`. */
  id?: string;
  /** Kept as the message's legacy `content.toolInvocations` array (with only Mastra's five fields), as Mastra does. */
  toolInvocations?: readonly TestToolInvocationOptions[];
  /** The message's parts; default one text part with `content`. */
  parts?: MessagePart[];
}

/**
 * A format-2 message for a test run, as Mastra's `createTestMessage` builds it: `parts` (one text part unless
 * given), `content` (the text), the tool invocations in the legacy `content.toolInvocations` array, and
 * `createdAt` now (an RFC 3339 string, where Mastra has a `Date`).
 *
 * @example
 * ```ts
 * createTestMessage({ content: 'The weather is sunny.', role: 'assistant', toolInvocations: [{ toolCallId: 'c1', toolName: 'weatherTool', args: {}, result: { temp: 20 }, state: 'result' }] });
 * ```
 */
export function createTestMessage(options: TestMessageOptions): RunMessage {
  const { content, role, id = 'test-message', toolInvocations = [], parts } = options;
  const body: RunMessage['content'] = { format: 2, parts: parts ?? [{ type: 'text', text: content }], content };
  if (toolInvocations.length > 0) {
    body.toolInvocations = toolInvocations.map((ti) => ({ toolCallId: ti.toolCallId, toolName: ti.toolName, args: ti.args, result: ti.result, state: ti.state ?? 'result' }));
  }
  return { id, role, content: body, createdAt: new Date().toISOString() };
}

/** What `createAgentTestRun` takes. */
export interface AgentTestRunOptions {
  inputMessages?: RunMessage[];
  output: RunMessage[];
  rememberedMessages?: RunMessage[];
  systemMessages?: SystemMessage[];
  taggedSystemMessages?: Record<string, SystemMessage[]>;
  requestContext?: unknown;
  runId?: string;
}

/**
 * A whole agent run as a scorer receives it: `input` in Mastra's agent shape, `output`, `requestContext`
 * (default `{}`; Mastra makes an empty `RequestContext`) and `runId` (default a random UUID).
 *
 * @example
 * ```ts
 * const run = createAgentTestRun({ inputMessages: [createTestMessage({ content: 'Hello', role: 'user' })], output: [createTestMessage({ content: 'Hi!', role: 'assistant' })] });
 * await scorer.run(run);
 * ```
 */
export function createAgentTestRun(options: AgentTestRunOptions) {
  const { inputMessages = [], output, rememberedMessages = [], systemMessages = [], taggedSystemMessages = {}, requestContext = {}, runId = randomUUID() } = options;
  return { input: { inputMessages, rememberedMessages, systemMessages, taggedSystemMessages }, output, requestContext, runId };
}

/** What `createTrajectoryTestRun` takes: `output` is the trajectory. */
export interface TrajectoryTestRunOptions extends Omit<AgentTestRunOptions, 'output'> {
  trajectory: Trajectory;
  expectedTrajectory?: unknown;
}

/**
 * A run for trajectory scorers: `output` is the `Trajectory` (what `runEvals` hands trajectory scorers), with the
 * item's `expectedTrajectory` when given.
 *
 * @example
 * ```ts
 * await trajectoryScorer.run(createTrajectoryTestRun({ trajectory: { steps: [{ stepType: 'tool_call', name: 'search' }] } }));
 * ```
 */
export function createTrajectoryTestRun(options: TrajectoryTestRunOptions) {
  const { trajectory, expectedTrajectory, ...rest } = options;
  const run = createAgentTestRun({ ...rest, output: [] });
  return { input: run.input, output: trajectory, expectedTrajectory, requestContext: run.requestContext, runId: run.runId };
}

/**
 * Mastra's older test run: `input` one user message, `output` `{ role: 'assistant', text }`.
 *
 * @example
 * ```ts
 * createTestRun('What is 2+2?', '4');
 * ```
 */
export function createTestRun(input: string, output: string, additionalContext?: Record<string, unknown>, requestContext?: Record<string, unknown>) {
  return { input: [{ role: 'user' as const, content: input }], output: { role: 'assistant' as const, text: output }, additionalContext: additionalContext ?? {}, requestContext: requestContext ?? {} };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The reasoning of the first assistant message of a run output (reasoning models): its `content.reasoning`, else
 * the text of its `reasoning` parts (their `details` of type text, or their `reasoning`) joined with newlines;
 * `undefined` when there is none.
 *
 * @example
 * ```ts
 * getReasoningFromRunOutput([{ role: 'assistant', content: { format: 2, parts: [{ type: 'reasoning', reasoning: 'step 1…' }] } }]); // 'step 1…'
 * ```
 */
export function getReasoningFromRunOutput(output: unknown): string | undefined {
  if (!Array.isArray(output)) return undefined;
  const message = output.find((m): m is Obj => isObj(m) && m.role === 'assistant');
  const content = message && isObj(message.content) ? message.content : undefined;
  if (!content) return undefined;
  if (typeof content.reasoning === 'string' && content.reasoning !== '') return content.reasoning;
  const parts = Array.isArray(content.parts) ? content.parts.filter((p): p is Obj => isObj(p) && p.type === 'reasoning') : [];
  if (parts.length === 0) return undefined;
  const texts = parts
    .map((p) => {
      if (Array.isArray(p.details)) {
        return p.details
          .filter((d): d is Obj => isObj(d) && d.type === 'text')
          .map((d) => (typeof d.text === 'string' ? d.text : ''))
          .join('');
      }
      return typeof p.reasoning === 'string' ? p.reasoning : '';
    })
    .filter((t) => t !== '');
  return texts.length > 0 ? texts.join('\n') : undefined;
}
