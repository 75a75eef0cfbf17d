/**
 * What a long-lived component may report about its health, beside its lifecycle (src/component.ts): a source
 * or an emitter that can tell whether it works implements {@link HealthReporter}. The service turns the reports
 * into `/readyz` and `tracejudge.component.state` (src/service/health.ts). Depends on nothing.
 */

export interface ComponentHealth {
  /** False while the component cannot do its work (the service is then not ready). */
  ready: boolean;
  /** A short word for the state gauge, e.g. `fetching`, `crashed`, `idle`, `held`. */
  state: string;
  /** Why it is not ready, in words (a line of the body of a 503 from /readyz). */
  reason?: string;
}

/** A component that reports its health; optional for any source or emitter. */
export interface HealthReporter {
  readonly name: string;
  health(): ComponentHealth;
}
