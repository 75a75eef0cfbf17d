/** Config for a command: `-c`, else TRACEJUDGE_CONFIG, else ./tracejudge.yaml, else defaults, checked against the scorer registry. */
import { loadConfig, resolveConfigPath, type Env } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { LogLevel } from '../config/sections/telemetry.js';
import { createScorerRegistry, type ScorerRegistry } from '../scorers/registry.js';
import type { CliContext } from './context.js';
import { setLogFormat } from '../telemetry/log.js';

export interface CliConfig {
  config: Config;
  /** The file read, or undefined for the built-in defaults. */
  path: string | undefined;
  /** The registry the scorer entries were checked against (hand it to the settings). */
  scorers: ScorerRegistry;
}

export interface LoadCliConfigOptions {
  env?: Env;
  /**
   * The log level when neither TRACEJUDGE_LOG_LEVEL nor `telemetry.logLevel` sets one. Default `warn`: an
   * offline command (`score`, `extract`, …) writes records on stdout and, on stderr, only what needs attention,
   * not the service's lifecycle lines; `serve` passes `info`.
   */
  defaultLogLevel?: LogLevel;
}

/** Where the config path came from, when not from `-c` (for the message when the file cannot be read). */
export function configSource(explicit: string | undefined, env: Env): string | undefined {
  return !explicit && env.TRACEJUDGE_CONFIG ? '$TRACEJUDGE_CONFIG' : undefined;
}

/**
 * Load the config and set the CLI logger's level: TRACEJUDGE_LOG_LEVEL, else `telemetry.logLevel`, else the
 * command's default (`warn` unless `options.defaultLogLevel`); and its format: TRACEJUDGE_LOG_FORMAT, else
 * `telemetry.logFormat`, else text on a terminal and JSON otherwise.
 */
export function loadCliConfig(explicit: string | undefined, cli: CliContext, options: LoadCliConfigOptions = {}): CliConfig {
  const env = options.env ?? process.env;
  const path = resolveConfigPath(explicit, env);
  const scorers = createScorerRegistry();
  const config = loadConfig(path, env, { scorers }, configSource(explicit, env));
  if (!env.TRACEJUDGE_LOG_LEVEL) cli.logger.level = config.telemetry.logLevel ?? options.defaultLogLevel ?? 'warn';
  setLogFormat(cli.logger, config.telemetry.logFormat, env);
  return { config, path, scorers };
}
