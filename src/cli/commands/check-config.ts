/**
 * `tracejudge check-config [-c FILE]`: validates a config. Every problem goes to stderr, one per line,
 * as `FILE: key.path: message`; exit 2 when there is any.
 */
import { ConfigError } from '../../errors.js';
import { loadCliConfig } from '../load-cli-config.js';
import { writeError } from '../output.js';
import { configOption, parseCommandArgs, usageError } from '../usage.js';

export function checkConfigCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('check-config', args, configOption);
  if (positionals.length > 0) throw usageError(`check-config: unexpected argument ${JSON.stringify(positionals[0])} (use -c FILE)`);
  try {
    const { path } = loadCliConfig(values.config);
    writeError(`${path ?? '<defaults>'}: config is valid`);
    return Promise.resolve(0);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const issue of err.issues) writeError(`${err.file}: ${issue.path || '(root)'}: ${issue.message}`);
    return Promise.resolve(2);
  }
}
