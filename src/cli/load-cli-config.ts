/** Config for a command: `-c`, else TRACEJUDGE_CONFIG, else ./tracejudge.yaml, else defaults; sets the log level. */
import { loadConfig, resolveConfigPath, type Env } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { logger } from '../telemetry/log.js';

export interface CliConfig {
  config: Config;
  /** The file read, or undefined for the built-in defaults. */
  path: string | undefined;
}

export function loadCliConfig(explicit: string | undefined, env: Env = process.env): CliConfig {
  const path = resolveConfigPath(explicit, env);
  const config = loadConfig(path, env);
  if (!env.TRACEJUDGE_LOG_LEVEL) logger.level = config.telemetry.logLevel;
  return { config, path };
}
