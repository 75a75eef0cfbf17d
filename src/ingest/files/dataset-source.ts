/**
 * `score --dataset FILE`: a JSON-lines dataset of `{ input, output?, groundTruth? }` items as a source.
 * Each item becomes an agent run (a string input is the user message, a string output the assistant
 * message, as Mastra's `runEvals` treats them) with a trace id derived from the file and line, and goes
 * straight to the pipeline (there are no spans to assemble). Items without `output` are reported and left
 * out: there is no target agent here to produce one.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { raceDeadline, type Component } from '../../component.js';
import { ErrorCodes, TracejudgeError } from '../../errors.js';
import { deferred } from '../../util/deferred.js';
import type { AgentRun, AgentRunContext, RunInput, RunMessage } from '../../model/agent-run.js';
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
    items.push({ line: i + 1, input: v.input, output: v.output, ...(v.groundTruth !== undefined ? { groundTruth: v.groundTruth } : {}) });
  });
  return { items, withoutOutput };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');

function messages(v: unknown, role: RunMessage['role']): RunMessage[] {
  if (typeof v === 'string') return [{ role, content: v }];
  if (Array.isArray(v)) {
    return v.map((m: unknown) => {
      const o = m !== null && typeof m === 'object' ? (m as { role?: unknown; content?: unknown }) : {};
      const r = o.role === 'user' || o.role === 'assistant' || o.role === 'system' || o.role === 'tool' ? o.role : role;
      return { role: r, content: text(o.content ?? m) };
    });
  }
  return [{ role, content: text(v) }];
}

function runInput(v: unknown): RunInput {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Array.isArray((v as { inputMessages?: unknown }).inputMessages)) {
    const o = v as { inputMessages: unknown; systemMessages?: unknown };
    return { inputMessages: messages(o.inputMessages, 'user'), systemMessages: o.systemMessages === undefined ? [] : messages(o.systemMessages, 'system') };
  }
  return { inputMessages: messages(v, 'user'), systemMessages: [] };
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
    input: runInput(item.input),
    output: messages(item.output, 'assistant'),
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
