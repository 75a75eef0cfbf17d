/**
 * `score --dataset FILE`: a JSON-lines dataset of `{ input, output?, groundTruth? }` items as a source.
 * Each item becomes an agent run in Mastra's shape (a string input is the user message, a string output the
 * assistant message, as Mastra's `runEvals` treats them; messages in tracejudge's earlier `{ role, content }`
 * shape are converted; docs/records.md) with a trace id derived from the file and line, and goes
 * straight to the pipeline (there are no spans to assemble). Items without `output` are reported and left
 * out: there is no target agent here to produce one.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { raceDeadline, type Component } from '../../component.js';
import { ErrorCodes, TracejudgeError } from '../../errors.js';
import { deferred } from '../../util/deferred.js';
import type { AgentRun, AgentRunContext, MessagePart, RunInput, RunMessage, SystemMessage, ToolInvocation } from '../../model/agent-run.js';
import { assistantMessage, messageFromParts, systemMessage, textMessage, userMessage, type MessageOptions } from '../../model/messages.js';
import type { Span } from '../../model/span.js';

export interface DatasetItem {
  /** 1-based line in the file. */
  line: number;
  input: unknown;
  output: unknown;
  groundTruth?: unknown;
}

/** Parse the dataset; every malformed line is an error naming `file:line`. */
export function readDataset(path: string): { items: DatasetItem[]; withoutOutput: number[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TracejudgeError(ErrorCodes.INPUT_UNREADABLE, `${path}: cannot read dataset (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const items: DatasetItem[] = [];
  const withoutOutput: number[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${path}:${i + 1}: invalid JSON (${(err as Error).message})`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !('input' in value)) {
      throw new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${path}:${i + 1}: expected an object with "input" (and "output", "groundTruth")`);
    }
    const v = value as { input: unknown; output?: unknown; groundTruth?: unknown };
    if (v.output === undefined) {
      withoutOutput.push(i + 1);
      return;
    }
    const item: DatasetItem = { line: i + 1, input: v.input, output: v.output, ...(v.groundTruth !== undefined ? { groundTruth: v.groundTruth } : {}) };
    itemMessages(path, item, 'check', new Date(0).toISOString());
    items.push(item);
  });
  return { items, withoutOutput };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A dataset value that is not a valid run message; `path` names where in the item (`output[1]`). */
class ShapeError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

/** Text of a content value: a string, the text parts of a part array joined with newlines, else its JSON. */
function contentText(content: unknown, sep = '\n'): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .filter((p): p is { type: 'text'; text: string } => isObject(p) && p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text)
      .join(sep);
  }
  return text(content);
}

/**
 * One message of a dataset item, as a Mastra format-2 message. A format-2 message is kept as written (its
 * `id` and `createdAt` filled in when missing); a string is a message of `role`; `{ role, content }` (the
 * shape tracejudge wrote before, with `toolInvocations` beside `content`, or AI SDK text parts) is
 * converted. A `tool` message is refused: Mastra keeps tool results in the assistant message's invocations.
 */
function datasetMessage(v: unknown, role: 'user' | 'assistant', options: Required<MessageOptions>, path: string): RunMessage {
  if (typeof v === 'string') return role === 'user' ? userMessage(v, options) : assistantMessage(v, [], options);
  if (!isObject(v)) return textMessage(role, text(v), options);
  if (v.role === 'tool') throw new ShapeError(path, 'role "tool" is not a run message role; put tool results in the assistant message\'s "toolInvocations"');
  const c = v.content;
  if (isObject(c) && (c.format === 2 || Array.isArray(c.parts))) {
    const createdAt = typeof v.createdAt === 'string' ? v.createdAt : v.createdAt instanceof Date ? v.createdAt.toISOString() : options.createdAt;
    return { ...v, id: typeof v.id === 'string' ? v.id : options.id, role: typeof v.role === 'string' ? v.role : role, createdAt, content: { ...c, format: 2, parts: Array.isArray(c.parts) ? (c.parts as MessagePart[]) : [] } } as RunMessage;
  }
  const r = v.role === 'user' || v.role === 'assistant' || v.role === 'system' ? v.role : role;
  const body = c === undefined ? text(v) : contentText(c);
  const invocations = v.toolInvocations;
  if (invocations === undefined) return textMessage(r, body, options);
  if (!Array.isArray(invocations) || !invocations.every((i) => isObject(i) && typeof i.toolName === 'string')) {
    throw new ShapeError(`${path}.toolInvocations`, 'expected a list of tool invocations ({ toolCallId, toolName, args, state, result })');
  }
  const parts: MessagePart[] = (invocations as unknown as ToolInvocation[]).map((toolInvocation) => ({ type: 'tool-invocation', toolInvocation }));
  if (body !== '') parts.push({ type: 'text', text: body });
  return messageFromParts(r, parts, options);
}

function datasetMessages(v: unknown, role: 'user' | 'assistant', ids: { prefix: string; createdAt: string }, path: string): RunMessage[] {
  const at = (i: number): Required<MessageOptions> => ({ id: `${ids.prefix}-${i}`, createdAt: ids.createdAt });
  if (Array.isArray(v)) return v.map((m, i) => datasetMessage(m, role, at(i), `${path}[${i}]`));
  return [datasetMessage(v, role, at(0), path)];
}

function datasetSystemMessages(v: unknown, path: string): SystemMessage[] {
  const one = (m: unknown, where: string): SystemMessage => {
    if (typeof m === 'string') return systemMessage(m);
    if (isObject(m) && m.content !== undefined) return systemMessage(contentText(m.content, ' '));
    throw new ShapeError(where, 'expected a system message: a string or { role: "system", content }');
  };
  return Array.isArray(v) ? v.map((m, i) => one(m, `${path}[${i}]`)) : [one(v, path)];
}

/** The run input of an item: a string, a message list, or an agent input (`{ inputMessages, systemMessages?, … }`). */
function runInput(v: unknown, spanId: string, createdAt: string): RunInput {
  const ids = (prefix: string) => ({ prefix: `${spanId}-${prefix}`, createdAt });
  if (isObject(v) && Array.isArray(v.inputMessages)) {
    const tagged: Record<string, SystemMessage[]> = {};
    if (v.taggedSystemMessages !== undefined) {
      if (!isObject(v.taggedSystemMessages)) throw new ShapeError('input.taggedSystemMessages', 'expected an object of system message lists');
      for (const [tag, list] of Object.entries(v.taggedSystemMessages)) tagged[tag] = datasetSystemMessages(list, `input.taggedSystemMessages.${tag}`);
    }
    return {
      inputMessages: datasetMessages(v.inputMessages, 'user', ids('in'), 'input.inputMessages'),
      rememberedMessages: v.rememberedMessages === undefined ? [] : datasetMessages(v.rememberedMessages, 'user', ids('mem'), 'input.rememberedMessages'),
      systemMessages: v.systemMessages === undefined ? [] : datasetSystemMessages(v.systemMessages, 'input.systemMessages'),
      taggedSystemMessages: tagged,
    };
  }
  return { inputMessages: datasetMessages(v, 'user', ids('in'), 'input'), rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} };
}

/** The run's input and output messages of an item; a value that cannot be a message is an error naming `file:line` and the path. */
function itemMessages(file: string, item: Pick<DatasetItem, 'line' | 'input' | 'output'>, spanId: string, createdAt: string): { input: RunInput; output: RunMessage[] } {
  try {
    return { input: runInput(item.input, spanId, createdAt), output: datasetMessages(item.output, 'assistant', { prefix: `${spanId}-out`, createdAt }, 'output') };
  } catch (err) {
    if (err instanceof ShapeError) throw new TracejudgeError(ErrorCodes.INPUT_MALFORMED, `${file}:${item.line}: ${err.message}`);
    throw err;
  }
}

/** The agent run of one item (agent `dataset`), with a span to stand for it. */
function datasetRun(file: string, item: DatasetItem, at: Date): AgentRunContext {
  const id = createHash('sha256').update(`${file}\n${item.line}`).digest('hex');
  const traceId = id.slice(0, 32);
  const spanId = id.slice(32, 48);
  const time = at.toISOString();
  const ns = BigInt(at.getTime()) * 1_000_000n;
  const run: AgentRun = {
    traceId,
    spanId,
    agentName: 'dataset',
    convention: 'mapping',
    ...itemMessages(file, item, spanId, time),
    toolResults: [],
    context: [],
    status: 'ok',
    startTime: time,
    endTime: time,
    ...(item.groundTruth !== undefined ? { groundTruth: item.groundTruth } : {}),
  };
  const span: Span = {
    traceId,
    spanId,
    parentSpanId: '',
    traceState: '',
    flags: 0,
    name: `dataset item ${item.line}`,
    kind: 1,
    startTimeUnixNano: ns,
    endTimeUnixNano: ns,
    attributes: { 'gen_ai.agent.name': 'dataset' },
    events: [],
    links: [],
    status: { code: 0, message: '' },
    resource: { attributes: {} },
    scope: { name: 'tracejudge.dataset', version: '', attributes: {} },
  };
  return { run, span, spans: [span], resourceAttributes: span.resource.attributes };
}

export interface DatasetSource extends Component {
  /** Resolves when every item was scored and its records handed to the emitters. */
  readonly done: Promise<void>;
  /** The dataset line of a run's trace id. */
  lineOf(traceId: string): number | undefined;
}

/** The source over `items`, scoring up to `concurrency` items at once through `score`. */
export function createDatasetSource(options: {
  file: string;
  items: readonly DatasetItem[];
  concurrency: number;
  score: (contexts: AgentRunContext[]) => Promise<unknown>;
  now: () => number;
}): DatasetSource {
  const lines = new Map<string, number>();
  const contexts = options.items.map((item) => {
    const c = datasetRun(options.file, item, new Date(options.now()));
    lines.set(c.run.traceId, item.line);
    return c;
  });
  let started: Promise<void> | undefined;
  const done = deferred<void>();
  async function run(): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < contexts.length) {
        const c = contexts[next++] as AgentRunContext;
        await options.score([c]);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, contexts.length)) }, worker));
  }
  return {
    name: 'dataset',
    done: done.promise,
    lineOf: (traceId) => lines.get(traceId),
    start() {
      started ??= Promise.resolve().then(() => {
        run().then(done.resolve, done.reject);
      });
      return started;
    },
    shutdown(deadline) {
      return started ? raceDeadline(done.promise, deadline) : Promise.resolve();
    },
  };
}
