/**
 * End-to-end delivery of one trace's records: every output must accept them, or drop them by an explicit,
 * counted policy (a `permanent` result), before the trace is settled (its Kafka offset committed past, its
 * write-ahead log record released). An output that answers `retryable` (down, over its retry budget, its buffer
 * full) is offered the records again, after a backoff, for as long as it takes: the trace stays in flight,
 * which holds the assembler's in-flight slot, so its bounds fill and the sources are held back (429/503 with
 * Retry-After, Kafka partitions paused). Only a {@link DeliveryStop} (the shutdown) ends the wait, with
 * `undelivered`; the caller then leaves the trace unsettled. Each output is retried on its own, so outputs
 * that accepted the records do not get them again.
 */
import type { ScoreRecord } from '../model/score-record.js';
import type { EmitResult, Emitter } from './emitter.js';
import { FanoutEmitter } from './fanout.js';

export type DeliveryOutcome =
  /** Every output accepted the records, or dropped them by policy (counted by the output). */
  | { delivered: true; dropped: number }
  /** Delivery stopped (shutdown) before every output accepted them; `emitters` names the ones that did not. */
  | { delivered: false; emitters: string[]; error: string };

const FIRST_WAIT_MS = 200;
const MAX_WAIT_MS = 5_000;

/** Ends every delivery wait at once (the shutdown); `stopped` stays true. */
export class DeliveryStop {
  #stopped = false;
  readonly #wakers = new Set<() => void>();

  get stopped(): boolean {
    return this.#stopped;
  }

  stop(): void {
    this.#stopped = true;
    for (const w of [...this.#wakers]) w();
    this.#wakers.clear();
  }

  /**
   * `p`, or `onStop()` as soon as `stop` is called (at once when already stopped). Nothing stays registered once
   * `p` settles, so a long-lived stop holds no reference to finished deliveries.
   */
  race<T>(p: Promise<T>, onStop: () => T): Promise<T> {
    if (this.#stopped) return Promise.resolve(onStop());
    return new Promise<T>((resolve, reject) => {
      const waker = (): void => resolve(onStop());
      this.#wakers.add(waker);
      p.then(
        (v) => {
          this.#wakers.delete(waker);
          resolve(v);
        },
        (err: unknown) => {
          this.#wakers.delete(waker);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** Waits `ms`, or less when stopped meanwhile. */
  wait(ms: number): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wakers.add(done);
    });
  }
}

/** The outputs behind `emitter` (a fan-out's own emitters, else itself). */
export function outputsOf(emitter: Emitter): readonly Emitter[] {
  return emitter instanceof FanoutEmitter ? emitter.emitters : [emitter];
}

/** Offers `records` to one output until it accepts or drops them, or `stop` ends the wait. */
async function deliverTo(output: Emitter, records: readonly ScoreRecord[], stop: DeliveryStop): Promise<EmitResult> {
  let wait = FIRST_WAIT_MS;
  for (;;) {
    let result: EmitResult;
    try {
      // An output may hold an emit for its whole retry budget; the stop does not wait for it (a late success
      // only makes a duplicate after the redelivery). Records that reach an output after the stop (traces
      // flushed at the shutdown) still get one attempt, bounded by the output's own shutdown.
      const stopped = (): EmitResult => ({ code: 'retryable', error: new Error(`${output.name}: delivery stopped by the shutdown`) });
      result = stop.stopped ? await output.emit(records) : await stop.race(output.emit(records), stopped);
    } catch (err) {
      result = { code: 'retryable', error: err instanceof Error ? err : new Error(String(err)) };
    }
    if (result.code !== 'retryable' || stop.stopped) return result;
    await stop.wait(Math.min(MAX_WAIT_MS, Math.max(result.retryAfterMs ?? wait, 50)));
    if (stop.stopped) return result;
    wait = Math.min(wait * 2, MAX_WAIT_MS);
  }
}

/** Delivers `records` to every output of `emitter` (see the module comment). Never rejects. */
export async function deliver(emitter: Emitter, records: readonly ScoreRecord[], stop: DeliveryStop): Promise<DeliveryOutcome> {
  if (records.length === 0) return { delivered: true, dropped: 0 };
  const outputs = outputsOf(emitter);
  const results = await Promise.all(outputs.map((o) => deliverTo(o, records, stop)));
  const failed = outputs.filter((_, i) => results[i]?.code === 'retryable');
  if (failed.length > 0) {
    const error = results.map((r, i) => (r.code === 'retryable' ? `${outputs[i]?.name}: ${r.error.message}` : undefined)).filter(Boolean).join('; ');
    return { delivered: false, emitters: failed.map((o) => o.name), error };
  }
  return { delivered: true, dropped: results.some((r) => r.code === 'permanent') ? records.length : 0 };
}
