/**
 * Readiness of the long-lived parts a service depends on: a component that can tell whether it works
 * implements {@link HealthReporter} (the Kafka source: is it in its group and fetching; a buffered emitter: has
 * it held a record too long). `/readyz` answers 503 with the reasons while one is not ready, and
 * `tracejudge.component.state` shows each one's state on /metrics.
 */
import type { Meter } from '@opentelemetry/api';
import type { ComponentHealth, HealthReporter } from '../health.js';

export type { ComponentHealth, HealthReporter };

export function isHealthReporter(x: unknown): x is HealthReporter {
  return typeof x === 'object' && x !== null && typeof (x as { health?: unknown }).health === 'function' && typeof (x as { name?: unknown }).name === 'string';
}

/** What an emitter that holds records offers for its health: since when its oldest undelivered record waits. */
export interface HeldRecords {
  readonly name: string;
  /** When (ms since epoch) the oldest record it holds undelivered was handed to it; undefined when it holds none. */
  heldSinceMs(): number | undefined;
}

export function holdsRecords(x: unknown): x is HeldRecords {
  return typeof x === 'object' && x !== null && typeof (x as { heldSinceMs?: unknown }).heldSinceMs === 'function';
}

/** The health of an emitter that holds records: not ready once the oldest has waited longer than `maxHeldMs`. */
export function emitterHealth(emitter: HeldRecords, maxHeldMs: number, now: () => number): HealthReporter {
  return {
    name: `emitter:${emitter.name}`,
    health() {
      const since = emitter.heldSinceMs();
      if (since === undefined) return { ready: true, state: 'idle' };
      const heldMs = now() - since;
      if (heldMs <= maxHeldMs) return { ready: true, state: 'sending' };
      return { ready: false, state: 'held', reason: `emitter ${emitter.name} has held records undelivered for ${Math.round(heldMs / 1000)} s (telemetry.health.maxEmitHeldMs: ${maxHeldMs})` };
    },
  };
}

export interface Readiness {
  ready: boolean;
  /** One line per component that is not ready. */
  reasons: string[];
}

/** Readiness over `reporters`; a reporter that throws counts as not ready. */
export function readiness(reporters: readonly HealthReporter[]): Readiness {
  const reasons: string[] = [];
  for (const r of reporters) {
    let h: ComponentHealth;
    try {
      h = r.health();
    } catch (err) {
      h = { ready: false, state: 'unknown', reason: `${r.name}: health check failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (!h.ready) reasons.push(h.reason ?? `${r.name}: ${h.state}`);
  }
  return { ready: reasons.length === 0, reasons };
}

/** The config in force, for `tracejudge_config_info{hash}` and `tracejudge_config_loaded_timestamp_seconds`. */
export interface ConfigInfo {
  hash: string;
  /** When it was loaded, ms since epoch. */
  loadedAtMs: number;
}

/**
 * Observe `tracejudge.component.state` (1 for each component's current state) and the config gauges on
 * `meter`. Returns the function that removes the callbacks.
 */
export function observeServiceState(meter: Meter, reporters: () => readonly HealthReporter[], config: () => ConfigInfo): () => void {
  const state = meter.createObservableGauge('tracejudge.component.state', { description: 'State of each source and emitter that reports one: 1 for its current state, 0 for states it was in before.' });
  const info = meter.createObservableGauge('tracejudge.config.info', { description: 'The configuration in force: 1, labelled with the hash of the loaded config (0 for configs replaced by a reload).' });
  const loaded = meter.createObservableGauge('tracejudge.config.loaded_timestamp_seconds', { description: 'When the configuration in force was loaded (at start or by a reload), in seconds since the epoch.', unit: 's' });
  // Every state a component was seen in stays a series (the SDK keeps it): 1 for the current one, 0 for the others.
  const seen = new Map<string, Set<string>>();
  const onState = (r: { observe(v: number, a: Record<string, string>): void }): void => {
    for (const c of reporters()) {
      let current = 'unknown';
      try {
        current = c.health().state;
      } catch {
        // reported as unknown
      }
      const states = seen.get(c.name) ?? new Set<string>();
      seen.set(c.name, states.add(current));
      for (const st of states) r.observe(st === current ? 1 : 0, { component: c.name, state: st });
    }
  };
  // The metrics SDK keeps reporting an attribute set once observed, so a replaced config's hash is set to 0
  // (not left at 1 beside the new one).
  const previous: string[] = [];
  const onInfo = (r: { observe(v: number, a?: Record<string, string>): void }): void => {
    const { hash } = config();
    if (previous.at(-1) !== hash) {
      const at = previous.indexOf(hash);
      if (at >= 0) previous.splice(at, 1);
      previous.push(hash);
      if (previous.length > 20) previous.shift();
    }
    for (const h of previous) r.observe(h === hash ? 1 : 0, { hash: h });
  };
  const onLoaded = (r: { observe(v: number): void }): void => r.observe(config().loadedAtMs / 1000);
  state.addCallback(onState);
  info.addCallback(onInfo);
  loaded.addCallback(onLoaded);
  return () => {
    state.removeCallback(onState);
    info.removeCallback(onInfo);
    loaded.removeCallback(onLoaded);
  };
}
