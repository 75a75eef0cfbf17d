import type { Component } from '../../component.js';

/**
 * An OTLP receiver: a component whose `start` binds and starts serving, and whose `shutdown` stops intake
 * (new requests get 503 / UNAVAILABLE), lets in-flight requests finish within the grace period and the
 * deadline, and closes the listener.
 */
export interface OtlpReceiver extends Component {
  /** The bound port once started (useful with port 0), else the configured one. */
  readonly port: number;
}

/** The receiver over its lifecycle component and its bound port. */
export function receiverOf(lifecycle: Component, port: () => number): OtlpReceiver {
  return {
    name: lifecycle.name,
    get port() {
      return port();
    },
    start: () => lifecycle.start(),
    shutdown: (deadline) => lifecycle.shutdown(deadline),
  };
}

/**
 * True when `header` is `Bearer <token>`: the scheme compared case-insensitively (RFC 7235: `bearer`,
 * `BEARER`), then one or more spaces, then the token compared exactly and without early exit.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const m = /^([A-Za-z]+) +(.*)$/s.exec(header);
  const scheme = m?.[1] ?? '';
  const a = Buffer.from(m?.[2] ?? '');
  const b = Buffer.from(token);
  let diff = (a.length ^ b.length) | (scheme.toLowerCase() === 'bearer' ? 0 : 1);
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ (b[i] as number);
  return diff === 0;
}

/** True when `host` can be reached from another machine (anything but a loopback address or `localhost`). */
export function listensBeyondLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return !(h === 'localhost' || h === '::1' || /^127\./.test(h));
}

/** The Retry-After hint of a request refused because the in-flight budget is spent. */
export const BUDGET_RETRY_AFTER_MS = 1000;

/**
 * A request of unknown size is admitted only while at least this much of the budget is free (an HTTP/2
 * stream's initial flow-control window): below it, it would be refused at its first bytes anyway, after
 * they were read.
 */
export const ADMIT_MIN_BYTES = 64 * 1024;

/**
 * The bytes of OTLP request bodies held in memory at once (`sources.otlp.maxInFlightBytes`), shared by the
 * HTTP and gRPC receivers of one service (one object, made by the service builder): received but not yet
 * decoded and handed to the assembler, which bounds what it keeps by itself. A receiver opens a
 * {@link BudgetReservation} per request and grows it as bytes arrive; a request whose next bytes do not
 * fit is refused (429 / RESOURCE_EXHAUSTED with a retry hint) and what it held is given back.
 */
export class InFlightBudget {
  #used = 0;
  #peak = 0;
  #refusals = 0;

  constructor(readonly limitBytes: number) {
    if (!(limitBytes > 0)) throw new Error(`in-flight budget must be positive (got ${limitBytes})`);
  }

  /** Bytes reserved now. */
  get usedBytes(): number {
    return this.#used;
  }

  /** The most ever reserved at once. */
  get peakBytes(): number {
    return this.#peak;
  }

  /** Reservations that could not grow (requests refused). */
  get refusals(): number {
    return this.#refusals;
  }

  /** Bytes still free. */
  available(): number {
    return this.limitBytes - this.#used;
  }

  /** A new, empty reservation. */
  open(): BudgetReservation {
    return new BudgetReservation(this);
  }

  /** @internal Take `n` bytes when they fit. */
  take(n: number): boolean {
    if (this.#used + n > this.limitBytes) {
      this.#refusals++;
      return false;
    }
    this.#used += n;
    if (this.#used > this.#peak) this.#peak = this.#used;
    return true;
  }

  /** @internal Give `n` bytes back. */
  give(n: number): void {
    this.#used = Math.max(0, this.#used - n);
  }
}

/** One request's share of an {@link InFlightBudget}. `release` is idempotent; a released reservation cannot grow. */
export class BudgetReservation {
  #bytes = 0;
  #released = false;

  constructor(private readonly budget: InFlightBudget) {}

  /** Bytes this request holds. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Reserve `n` more bytes; false (nothing reserved) when they do not fit or the reservation was released. */
  grow(n: number): boolean {
    if (this.#released) return false;
    if (n <= 0) return true;
    if (!this.budget.take(n)) return false;
    this.#bytes += n;
    return true;
  }

  /** Make the reservation at least `n` bytes in all. */
  ensure(n: number): boolean {
    return n <= this.#bytes || this.grow(n - this.#bytes);
  }

  /** Make the reservation exactly `n` bytes (growing may fail; shrinking always works). */
  resize(n: number): boolean {
    if (n >= this.#bytes) return this.ensure(n);
    if (this.#released) return false;
    this.budget.give(this.#bytes - n);
    this.#bytes = n;
    return true;
  }

  /** Give everything back. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.budget.give(this.#bytes);
    this.#bytes = 0;
  }
}
