/**
 * What a config reload does to a running service, decided key path by key path (docs/configuration.md,
 * "Reload"). Applied live: the `sampling` section (the policy is swapped) and the bearer token of the OTLP
 * receivers and the live page (`sources.otlp.auth.*`). Every other changed key needs a restart: the reload
 * names those paths in a warn line, again at every reload until the restart, and never their values.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { configDiff } from '../config/diff.js';
import type { Config } from '../config/schema.js';

const LIVE: readonly RegExp[] = [/^sampling(\.|\[|$)/, /^sources\.otlp\.auth\.(bearerToken|previousTokenGraceMs)$/];

/** True when a change at `path` takes effect without a restart. */
export function isLiveKey(path: string): boolean {
  return LIVE.some((re) => re.test(path));
}

export interface ReloadPlan {
  /** Live keys changed since the config in force: applied by this reload. */
  applied: string[];
  /** Other keys that differ from the config the service started with: not applied until a restart. */
  restartRequired: string[];
}

/** What reloading `next` applies (against `current`, the config in force) and what waits for a restart (against `started`). */
export function planReload(started: Config, current: Config, next: Config): ReloadPlan {
  return {
    applied: configDiff(current, next).filter(isLiveKey),
    restartRequired: configDiff(started, next).filter((p) => !isLiveKey(p)),
  };
}

/** A short hash of a config's effective values (16 hex digits of SHA-256), for `tracejudge_config_info{hash}`. */
export function configHash(config: Config): string {
  return createHash('sha256').update(JSON.stringify(config)).digest('hex').slice(0, 16);
}

/** The reload's log lines: what was applied (info), what needs a restart (warn). Key paths only, no values. */
export function logReload(log: Logger, file: string, plan: ReloadPlan): void {
  if (plan.restartRequired.length > 0) {
    log.warn({ file, restartRequired: plan.restartRequired }, `configuration changes not applied until a restart: ${plan.restartRequired.join(', ')}`);
  }
  if (plan.applied.length > 0) log.info({ file, applied: plan.applied }, `configuration reloaded: applied ${plan.applied.join(', ')}`);
  else log.info({ file }, plan.restartRequired.length > 0 ? 'configuration reloaded: nothing applied live' : 'configuration reloaded: no change');
}
