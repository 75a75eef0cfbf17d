/**
 * Config hot reload: on SIGHUP or a change of the file, re-read and validate it with `loadConfig`. A
 * valid config goes to `onValid` (the service builds a new policy and `PolicyHolder.swap`s it); an invalid
 * one is logged, every issue with its key path, handed to `onInvalid`, and the old config stays in force.
 *
 * The directory is watched rather than the file, because editors and config-map updates replace the
 * file by rename, which ends a watch on the file itself.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { loadConfig, type Env } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { ConfigError, errorMessage, TracejudgeError } from '../errors.js';
import type { Logger } from 'pino';
import { silentLogger } from '../telemetry/log.js';

export interface WatchConfigOptions {
  /** Quiet time after the last change before reloading (default 200 ms). */
  debounceMs?: number;
  /** Environment for `${VAR}` expansion (default `process.env`). */
  env?: Env;
  /** Also reload on SIGHUP (default true). */
  sighup?: boolean;
  /** Loads and validates the file (default `loadConfig`; the service checks scorers against its registry). */
  load?: (file: string, env: Env) => Config;
  /** Where reloads and rejected configs are logged (default: nowhere). */
  logger?: Logger;
}

export interface ConfigWatcher {
  /** Reload now (debounced), as SIGHUP does; delivers the config even when unchanged. */
  reload(): void;
  /** Stop watching and remove the SIGHUP handler. Safe to call twice. */
  close(): void;
}

/** Log every issue of a failed load with its key path. */
export function logConfigError(err: unknown, file: string, logger: Logger): void {
  if (err instanceof ConfigError) {
    for (const issue of err.issues) {
      logger.error({ file: err.file, path: issue.path || '(root)', code: err.code }, `config reload rejected: ${issue.path || '(root)'}: ${issue.message}`);
    }
  } else {
    logger.error({ file, code: err instanceof TracejudgeError ? err.code : undefined }, `config reload rejected: ${errorMessage(err)}`);
  }
  logger.warn({ file }, 'keeping the previous configuration');
}

/**
 * Watch `path`; call `onValid` with each new valid config and `onInvalid` with the error of each invalid
 * one. Exceptions thrown by the callbacks are logged, never propagated.
 */
export function watchConfig(
  path: string,
  onValid: (config: Config) => void,
  onInvalid: (error: Error) => void,
  options: WatchConfigOptions = {},
): ConfigWatcher {
  const file = resolve(path);
  const name = basename(file);
  const logger = options.logger ?? silentLogger();
  const load = options.load ?? loadConfig;
  const debounceMs = options.debounceMs ?? 200;
  let timer: NodeJS.Timeout | undefined;
  let forced = false;
  let closed = false;
  let lastDelivered: string | undefined;

  const run = (): void => {
    timer = undefined;
    const force = forced;
    forced = false;
    if (closed) return;
    let config: Config;
    try {
      config = load(file, options.env ?? process.env);
    } catch (err) {
      logConfigError(err, file, logger);
      safely(() => onInvalid(err instanceof Error ? err : new Error(String(err))), logger);
      return;
    }
    const fingerprint = JSON.stringify(config);
    if (!force && fingerprint === lastDelivered) return;
    lastDelivered = fingerprint;
    // The service says what the reload applied and what needs a restart (src/service/reload.ts).
    logger.debug({ file }, 'configuration file read and valid');
    safely(() => onValid(config), logger);
  };

  const schedule = (force: boolean): void => {
    if (closed) return;
    forced ||= force;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, debounceMs);
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) schedule(false);
    });
    watcher.on('error', (err) => logger.warn({ file, err: errorMessage(err) }, 'config watch failed; SIGHUP still reloads'));
  } catch (err) {
    logger.warn({ file, err: errorMessage(err) }, 'cannot watch the config directory; SIGHUP still reloads');
  }

  const onSighup = (): void => schedule(true);
  if (options.sighup !== false) process.on('SIGHUP', onSighup);

  return {
    reload: () => schedule(true),
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      watcher?.close();
      process.off('SIGHUP', onSighup);
    },
  };
}

function safely(fn: () => void, logger: Logger): void {
  try {
    fn();
  } catch (err) {
    logger.error({ err: errorMessage(err) }, 'config reload callback failed');
  }
}
