/**
 * The component model (after the OpenTelemetry Collector's `component` package): what every component
 * factory receives, and the one lifecycle every long-lived component shares.
 *
 * Settings: the entry point makes one settings object (src/service/settings.ts, which adds the judge
 * resolver, the scorer registry and the string interner to the {@link ComponentSettings} here) and hands
 * it to every factory; each layer asks only for the part it needs. Nothing is global: two services in one
 * process have two settings objects.
 *
 * Lifecycle: receivers, the Kafka source, the write-ahead log, the assembler, the judge queue, emitters,
 * the metrics endpoint and the completeness workers all implement {@link Component}. `start` brings the
 * component up (bind a port, connect, start a timer). `shutdown(deadline)` stops it, flushing what it
 * holds, and resolves by `deadline` (milliseconds since the epoch) at the latest. It is safe to call twice
 * (the second call gets the first call's promise) and safe when `start` never ran.
 */
import type { Logger } from 'pino';
import { Telemetry } from './telemetry/instruments.js';
import { Secrets, silentLogger } from './telemetry/log.js';

export interface ComponentSettings {
  readonly logger: Logger;
  readonly telemetry: Telemetry;
  /** Values scrubbed from logs, errors and reasons (the judge API key). */
  readonly secrets: Secrets;
  /** The clock, in milliseconds since the epoch. */
  readonly now: () => number;
}

/**
 * Settings for a component used on its own (library use, tests): a silent logger, no-op instruments, no
 * secrets and `Date.now`, unless given.
 *
 * @example
 * ```ts
 * const assembler = new TraceAssembler({ onTrace, settings: componentSettings({ now: clock.now }) });
 * ```
 */
export function componentSettings(overrides: Partial<ComponentSettings> = {}): ComponentSettings {
  return {
    logger: overrides.logger ?? silentLogger(),
    telemetry: overrides.telemetry ?? Telemetry.noop(),
    secrets: overrides.secrets ?? new Secrets(),
    now: overrides.now ?? Date.now,
  };
}

export interface Component {
  /** Short name for logs and errors, e.g. `otlp-http`, `emitter:jsonl`. */
  readonly name: string;
  start(): Promise<void>;
  shutdown(deadline: number): Promise<void>;
}

/** What a component does at start and at shutdown; {@link component} adds the lifecycle rules. */
export interface ComponentHooks {
  start?(): Promise<void> | void;
  /** Runs once, only when `start` ran (even when it failed, to release what it took). */
  shutdown?(deadline: number): Promise<void> | void;
}

/**
 * A {@link Component} from its hooks, with the lifecycle rules enforced in one place: `start` runs once;
 * `shutdown` runs once, after `start` settled, and only when `start` was called; starting a component that
 * was shut down is an error.
 *
 * @example
 * ```ts
 * const timer = component('ticker', { start: () => { t = setInterval(tick, 100); }, shutdown: () => clearInterval(t) });
 * ```
 */
export function component(name: string, hooks: ComponentHooks): Component {
  let started: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;
  return {
    name,
    start() {
      if (stopped) return Promise.reject(new Error(`${name}: cannot start after shutdown`));
      started ??= Promise.resolve().then(() => hooks.start?.());
      return started;
    },
    shutdown(deadline) {
      stopped ??= (async () => {
        if (!started) return;
        await started.catch(() => undefined);
        await hooks.shutdown?.(deadline);
      })();
      return stopped;
    },
  };
}

/**
 * The time a component that hands work downstream keeps for the components after it when it shuts down:
 * a quarter of what is left, at most 2 s. It stops waiting at `deadline - flushReserveMs(deadline)`, so the
 * emitters still have time to flush what it handed on.
 */
export function flushReserveMs(deadline: number): number {
  return Math.min(2000, Math.max(0, (deadline - Date.now()) / 4));
}

/** Milliseconds left until `deadline`, at least `min`. */
export function remainingMs(deadline: number, min = 1): number {
  return Math.max(min, deadline - Date.now());
}

/** Resolve when `p` settles or at `deadline`, whichever is first; never rejects. */
export async function raceDeadline(p: Promise<unknown>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    timer.unref();
  });
  try {
    await Promise.race([p.then(() => undefined, () => undefined), timeout]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
