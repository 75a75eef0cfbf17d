/**
 * Facts computed on first read. An LLM span's input messages (often kilobytes of JSON: the whole
 * conversation so far) and system instructions are read by a run only for its first LLM call, or when a
 * tool result has to be recovered from the conversation; parsing them for every LLM span cost a fifth of
 * extraction. A `Deferred` computes once, when its `value` is first read.
 */
export class Deferred<T> {
  private computed = false;
  private result: T | undefined;
  private compute: ((arg: never) => T | undefined) | undefined;
  /** What `compute` is called with (see `from`). */
  private arg: unknown;

  private constructor(compute: ((arg: never) => T | undefined) | undefined, arg: unknown, value: T | undefined) {
    this.compute = compute;
    this.arg = arg;
    this.result = value;
    this.computed = compute === undefined;
  }

  /** A value computed by `compute` when first read. */
  static of<T>(compute: () => T | undefined): Deferred<T> {
    return new Deferred(compute, undefined, undefined);
  }

  /**
   * A value computed by `compute(arg)` when first read. The same as `of(() => compute(arg))` without a
   * closure: every span's facts hold a few deferred values, and their closures were a good part of the
   * garbage extraction makes.
   */
  static from<A, T>(compute: (arg: A) => T | undefined, arg: A): Deferred<T> {
    return new Deferred(compute, arg, undefined);
  }

  /** A value already known. */
  static known<T>(value: T | undefined): Deferred<T> {
    return new Deferred<T>(undefined, undefined, value);
  }

  /**
   * The value, computed on the first read. Never throws: like a selector that fails on odd data (see
   * `readSpan`), a failing computation states nothing (`undefined`), and extraction goes on.
   */
  get value(): T | undefined {
    if (!this.computed) {
      const compute = this.compute as (arg: unknown) => T | undefined;
      const arg = this.arg;
      this.compute = undefined;
      this.arg = undefined;
      this.computed = true;
      try {
        this.result = compute(arg);
      } catch {
        this.result = undefined;
      }
    }
    return this.result;
  }
}

/** The non-empty texts of the `system` messages among `msgs`, or undefined when there are none. */
export function systemTextsOf(msgs: readonly { role: string; text: string }[] | undefined): string[] | undefined {
  let out: string[] | undefined;
  if (msgs !== undefined) {
    for (const m of msgs) {
      if (m.role !== 'system' || m.text.length === 0) continue;
      if (out === undefined) out = [m.text];
      else out.push(m.text);
    }
  }
  return out;
}

/** The system texts among a deferred input's messages (`systemTextsOf` of its value), for `Deferred.from`. */
export function systemTextsOfInput(input: Deferred<ReadonlyArray<{ role: string; text: string }>>): string[] | undefined {
  return systemTextsOf(input.value);
}
