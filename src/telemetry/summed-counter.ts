/**
 * A monotonic counter summed in the process and reported when the metrics are collected (a Prometheus
 * scrape, an OTLP export), through an asynchronous counter of the same name, unit and description. The
 * exported series are those of a synchronous counter: one cumulative sum per attribute set.
 *
 * Why: the hottest counters (`tracejudge.evaluations`, `tracejudge.sampling.decisions`) move once per
 * evaluation. A synchronous counter of the SDK sorts and serialises the attribute set on every `add` to
 * find its series, which was about a tenth of the string-scorer pipeline; here an `add` is one map lookup
 * on a key made from the values of the instrument's known attribute keys.
 */
import type { Attributes, Counter, Meter, MetricOptions } from '@opentelemetry/api';

interface Series {
  readonly attributes: Attributes;
  value: number;
}

export class SummedCounter implements Counter {
  readonly #keys: readonly string[];
  readonly #series = new Map<string, Series>();

  /**
   * @param keys every attribute key an `add` of this counter may carry; an attribute set with another key
   * is keyed by all of its entries in sorted order instead (correct, only slower).
   */
  constructor(meter: Meter, name: string, options: MetricOptions, keys: readonly string[]) {
    this.#keys = keys;
    meter.createObservableCounter(name, options).addCallback((result) => {
      for (const s of this.#series.values()) result.observe(s.value, s.attributes);
    });
  }

  /** Adds `value` (ignored unless a finite number ≥ 0, as a counter must) to the series of `attributes`. */
  add(value: number, attributes: Attributes = {}): void {
    if (!(value >= 0) || value === Infinity) return;
    const key = this.#keyOf(attributes);
    const s = this.#series.get(key);
    if (s) s.value += value;
    else this.#series.set(key, { attributes: { ...attributes }, value });
  }

  #keyOf(attributes: Attributes): string {
    let key = '';
    let present = 0;
    for (const k of this.#keys) {
      if (!(k in attributes)) key += '\u0001';
      else {
        present++;
        const v = attributes[k];
        // A key set to undefined is a series of its own, as the SDK counts it.
        const text = v === undefined ? '\u0003' : String(v);
        if (text.includes('\u0000') || text.includes('\u0001')) return canonicalKey(attributes);
        key += text;
      }
      key += '\u0000';
    }
    let all = 0;
    for (const _ in attributes) all++;
    // An attribute outside the declared keys: the whole set, in a canonical order.
    return present === all ? key : canonicalKey(attributes);
  }
}

/** Every entry of an attribute set in key order, as one string (never equal to a declared-keys key). */
function canonicalKey(attributes: Attributes): string {
  const entries = Object.keys(attributes)
    .sort()
    .map((k) => [k, attributes[k] === undefined ? '\u0003' : attributes[k]]);
  return `\u0002${JSON.stringify(entries)}`;
}
