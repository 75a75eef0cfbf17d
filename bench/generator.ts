/**
 * Seeded generator of realistic agent traces for the benchmarks. Every trace is an instance of a real
 * library fixture (test/fixtures/traces): re-identified with a seeded PRNG, shifted in time, with extra
 * tool calls and message padding as configured. Output is OTLP/JSON request objects, encodable to JSON or
 * protobuf bytes (generator/encode.ts).
 *
 * @example
 * ```ts
 * const gen = new TraceGenerator({ seed: 7, messageSize: 'llm' });
 * const requests = batchRequests(gen.take(100), 512);
 * const bodies = requests.map(encodeProto);
 * ```
 */
import { Prng } from './generator/prng.js';
import { CONVENTIONS, loadTemplates, type Convention, type Template } from './generator/templates.js';
import { instantiate } from './generator/transform.js';
import type { JsonResourceSpans, JsonTraceRequest } from './generator/otlp-json.js';

export { encodeJson, encodeProto, toProtoObject } from './generator/encode.js';
export { CONVENTIONS, type Convention } from './generator/templates.js';
export { SYSTEM_PROMPT, isToolSpan } from './generator/transform.js';
export type { JsonTraceRequest, JsonResourceSpans, JsonSpan } from './generator/otlp-json.js';

/** Message text added to each LLM span for `messageSize: 'llm'` (about 3 KB spans with the fixture content). */
export const LLM_PAD_CHARS = 2500;

export interface GeneratorOptions {
  /** PRNG seed; the same options give byte-identical output. Default 1. */
  seed?: number;
  /** Relative weight per convention; missing or 0 excludes it. Default: all equal. */
  mix?: Partial<Record<Convention, number>>;
  /** Agent runs per trace; above 1 they hang under one synthetic driver root span. Default 1. */
  runsPerTrace?: number;
  /** Leaf tool spans per run (copies of the template's tools); never fewer than the template has. Default 0 (as recorded). */
  toolCallsPerRun?: number;
  /** `small`: message text as recorded (short prompts); `llm`: about 3 KB per LLM span. Default `small`. */
  messageSize?: 'small' | 'llm';
  /** Overrides the padding that `messageSize` implies: extra characters per span carrying the system prompt. */
  padCharsPerSpan?: number;
  /** Start of the first trace. Default 2026-01-01T00:00:00Z. */
  startUnixNano?: bigint;
  /** Gap between the starts of consecutive traces. Default 1 ms. */
  traceIntervalNanos?: bigint;
  /** Directory of the template fixtures. Default test/fixtures/traces (a snapshot keeps a corpus fixed while fixtures are added). */
  fixturesDir?: string;
}

export interface GeneratedTrace {
  traceId: string;
  conventions: Convention[];
  spanCount: number;
  resourceSpans: JsonResourceSpans[];
}

const DRIVER_RESOURCE = [{ key: 'service.name', value: { stringValue: 'bench-driver' } }];

/** Produces traces one at a time; deterministic for given options. */
export class TraceGenerator {
  readonly #prng: Prng;
  readonly #weights: ReadonlyArray<readonly [Convention, number]>;
  readonly #byConvention: ReadonlyMap<Convention, Template[]>;
  readonly #runs: number;
  readonly #tools: number;
  readonly #pad: number;
  readonly #interval: bigint;
  #next: bigint;

  constructor(options: GeneratorOptions = {}) {
    this.#prng = new Prng(options.seed ?? 1);
    const templates = loadTemplates(options.fixturesDir);
    const by = new Map<Convention, Template[]>();
    for (const t of templates) by.set(t.convention, [...(by.get(t.convention) ?? []), t]);
    this.#byConvention = by;
    const mix = options.mix ?? Object.fromEntries(CONVENTIONS.map((c) => [c, 1]));
    this.#weights = CONVENTIONS.map((c) => [c, mix[c] ?? 0] as const).filter(([c, w]) => w > 0 && by.has(c));
    if (this.#weights.length === 0) throw new Error('TraceGenerator: `mix` selects no convention with fixtures');
    this.#runs = Math.max(1, Math.floor(options.runsPerTrace ?? 1));
    this.#tools = Math.max(0, Math.floor(options.toolCallsPerRun ?? 0));
    this.#pad = options.padCharsPerSpan ?? (options.messageSize === 'llm' ? LLM_PAD_CHARS : 0);
    this.#next = options.startUnixNano ?? 1_767_225_600_000_000_000n;
    this.#interval = options.traceIntervalNanos ?? 1_000_000n;
  }

  /** The next trace. */
  next(): GeneratedTrace {
    const traceId = this.#prng.hex(16);
    const start = this.#next;
    this.#next += this.#interval;
    const conventions: Convention[] = [];
    const resourceSpans: JsonResourceSpans[] = [];
    const roots: string[] = [];
    let spanCount = 0;
    let at = start;
    for (let r = 0; r < this.#runs; r++) {
      const convention = this.#prng.pick(this.#weights);
      const list = this.#byConvention.get(convention) as Template[];
      const template = list[this.#prng.int(list.length)] as Template;
      const inst = instantiate(template.request, this.#prng, { traceId, startUnixNano: at, toolCallsPerRun: this.#tools, padCharsPerSpan: this.#pad });
      conventions.push(convention);
      resourceSpans.push(...inst.resourceSpans);
      roots.push(...inst.rootSpanIds);
      spanCount += inst.spanCount;
      at = inst.endUnixNano + 1_000_000n;
    }
    if (this.#runs > 1) {
      const driverId = this.#prng.hex(8);
      const rootSet = new Set(roots);
      for (const rs of resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) if (rootSet.has(s.spanId)) s.parentSpanId = driverId;
      resourceSpans.unshift({
        resource: { attributes: DRIVER_RESOURCE },
        scopeSpans: [
          {
            scope: { name: 'bench-driver' },
            spans: [{ traceId, spanId: driverId, parentSpanId: '', name: 'handle-request', kind: 2, startTimeUnixNano: start.toString(), endTimeUnixNano: at.toString(), attributes: [], status: { code: 0 } }],
          },
        ],
      });
      spanCount++;
    }
    return { traceId, conventions, spanCount, resourceSpans };
  }

  /** The next `n` traces. */
  take(n: number): GeneratedTrace[] {
    const out: GeneratedTrace[] = [];
    for (let i = 0; i < n; i++) out.push(this.next());
    return out;
  }
}

/**
 * Packs whole traces into requests of at least `spansPerRequest` spans each (the last may be smaller),
 * like an SDK batch exporter that flushes on size.
 */
export function batchRequests(traces: readonly GeneratedTrace[], spansPerRequest: number): JsonTraceRequest[] {
  const out: JsonTraceRequest[] = [];
  let current: JsonResourceSpans[] = [];
  let spans = 0;
  for (const t of traces) {
    current.push(...t.resourceSpans);
    spans += t.spanCount;
    if (spans >= spansPerRequest) {
      out.push({ resourceSpans: current });
      current = [];
      spans = 0;
    }
  }
  if (current.length > 0) out.push({ resourceSpans: current });
  return out;
}

/** Spans in a request. */
export function spanCountOf(request: JsonTraceRequest): number {
  let n = 0;
  for (const rs of request.resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
  return n;
}

export { replicaTraceId, replicateJson, replicateProto } from './generator/replicate.js';
