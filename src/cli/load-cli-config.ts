/** Config for a command: `-c`, else TRACEJUDGE_CONFIG, else ./tracejudge.yaml, else defaults, checked against the scorer registry. */
import { loadConfig, resolveConfigPath, type Env } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { createScorerRegistry, type ScorerRegistry } from '../scorers/registry.js';
import type { CliContext } from './context.js';

export interface CliConfig {
  config: Config;
  /** The file read, or undefined for the built-in defaults. */
  path: string | undefined;
  /** The registry the scorer entries were checked against (hand it to the settings). */
  scorers: ScorerRegistry;
}

/** Load the config; sets the CLI logger's level from `telemetry.logLevel` unless TRACEJUDGE_LOG_LEVEL is set. */
export function loadCliConfig(explicit: string | undefined, cli: CliContext, env: Env = process.env): CliConfig {
  const path = resolveConfigPath(explicit, env);
  const scorers = createScorerRegistry();
  const config = loadConfig(path, env, { scorers });
  if (!env.TRACEJUDGE_LOG_LEVEL) cli.logger.level = config.telemetry.logLevel;
  return { config, path, scorers };
}
