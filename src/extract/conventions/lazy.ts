/**
 * Facts computed on first read. An LLM span's input messages (often kilobytes of JSON: the whole
 * conversation so far) and system instructions are read by a run only for its first LLM call, or when a
 * tool result has to be recovered from the conversation; parsing them for every LLM span cost a fifth of
 * extraction. A `Deferred` computes once, when its `value` is first read.
 */
export class Deferred<T> {
  private computed = false;
  private result: T | undefined;
  private compute: (() => T | undefined) | undefined;

  private constructor(compute: (() => T | undefined) | undefined, value: T | undefined) {
    this.compute = compute;
    this.result = value;
    this.computed = compute === undefined;
  }

  /** A value computed by `compute` when first read. */
  static of<T>(compute: () => T | undefined): Deferred<T> {
    return new Deferred(compute, undefined);
  }

  /** A value already known. */
  static known<T>(value: T | undefined): Deferred<T> {
    return new Deferred<T>(undefined, value);
  }

  /**
   * The value, computed on the first read. Never throws: like a selector that fails on odd data (see
   * `readSpan`), a failing computation states nothing (`undefined`), and extraction goes on.
   */
  get value(): T | undefined {
    if (!this.computed) {
      const compute = this.compute as () => T | undefined;
      this.compute = undefined;
      this.computed = true;
      try {
        this.result = compute();
      } catch {
        this.result = undefined;
      }
    }
    return this.result;
  }
}

/** Texts of the `system` messages among `msgs`, or undefined when there are none. */
export function systemTextsOf(msgs: readonly { role: string; text: string }[] | undefined): string[] | undefined {
  const sys = (msgs ?? []).filter((m) => m.role === 'system').map((m) => m.text).filter((t) => t.length > 0);
  return sys.length > 0 ? sys : undefined;
}
