/**
 * The last exemplar (trace id, value, time) of each result series, for the OpenMetrics rendering of
 * `/metrics` (openmetrics.ts). The OpenTelemetry JS metrics SDK records no exemplars (opentelemetry-js issue
 * #5147), so {@link Telemetry.recordScore} feeds this store beside its instruments.
 *
 * Keys are the label values as they appear on `/metrics` (the agent label already bounded by
 * `emit.metrics`), so the number of series is bounded by agents × scorers × outcomes (and buckets); the
 * store is bounded again by `maxSeries`, dropping the least recently updated series first.
 */

/** One exemplar: the trace that produced the observation, its value, and when (milliseconds since the epoch). */
export interface Exemplar {
  readonly traceId: string;
  readonly value: number;
  readonly timeMs: number;
}

/** The labels that identify a result series on `/metrics`. */
export interface ResultSeries {
  /** `gen_ai_evaluation_name`. */
  readonly scorer: string;
  /** `gen_ai_agent_name` (the bounded label). */
  readonly agent: string;
}

const SEP = '\u0000';
const TRACE_ID = /^[0-9a-f]{32}$/;

export class ExemplarStore {
  readonly #counter = new Map<string, Exemplar>();
  readonly #buckets = new Map<string, Exemplar>();
  readonly #maxSeries: number;
  readonly #bounds: readonly number[];

  /** `bounds`: the score histogram's bucket boundaries (an exemplar goes on the bucket its value falls in). */
  constructor(bounds: readonly number[], maxSeries = 10_000) {
    this.#bounds = bounds;
    this.#maxSeries = maxSeries;
  }

  /** One evaluation of `series` with `outcome`, from trace `traceId`; `score` also lands on its histogram bucket. */
  record(series: ResultSeries, outcome: string, traceId: string, score: number | undefined, timeMs: number): void {
    if (!TRACE_ID.test(traceId)) return;
    put(this.#counter, key(series.scorer, series.agent, outcome), { traceId, value: 1, timeMs }, this.#maxSeries);
    if (score !== undefined) put(this.#buckets, key(series.scorer, series.agent, this.bucketOf(score)), { traceId, value: score, timeMs }, this.#maxSeries);
  }

  /** The exemplar for a `tracejudge_evaluations_total` sample. */
  counter(scorer: string, agent: string, outcome: string): Exemplar | undefined {
    return this.#counter.get(key(scorer, agent, outcome));
  }

  /** The exemplar for a `tracejudge_evaluation_score_bucket` sample (`le` as written on `/metrics`). */
  bucket(scorer: string, agent: string, le: string): Exemplar | undefined {
    return this.#buckets.get(key(scorer, agent, le));
  }

  /** The `le` of the bucket `value` falls in, written as the Prometheus exporter writes it. */
  bucketOf(value: number): string {
    for (const b of this.#bounds) if (value <= b) return String(b);
    return '+Inf';
  }

  /** Series held (counter and buckets). */
  get size(): number {
    return this.#counter.size + this.#buckets.size;
  }
}

function key(...parts: string[]): string {
  return parts.join(SEP);
}

/** Set `k` as the newest entry; beyond `max`, drop the oldest. */
function put(map: Map<string, Exemplar>, k: string, e: Exemplar, max: number): void {
  map.delete(k);
  map.set(k, e);
  if (map.size > max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}
