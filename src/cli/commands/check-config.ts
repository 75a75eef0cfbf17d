/**
 * `tracejudge check-config [-c FILE] [--explain-sampling AGENT]`: validates a config. Every problem goes
 * to stderr, one per line, as `FILE: key.path: message`; exit 2 when there is any. With
 * `--explain-sampling AGENT`, the effective sampling rate and rules per scorer for that agent are printed
 * on stdout.
 */
import { ConfigError } from '../../errors.js';
import { judgeEnabled, resolveJudgeSettings } from '../../judge/settings.js';
import { explainSampling } from '../../sampling/explain.js';
import { effectiveScorerSection, judgeRequirementIssues } from '../../service/scorers.js';
import type { CliContext } from '../context.js';
import { loadCliConfig } from '../load-cli-config.js';
import { configOption, parseCommandArgs, usageError } from '../usage.js';

export async function checkConfigCommand(args: readonly string[], cli: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs('check-config', args, { ...configOption, 'explain-sampling': { type: 'string' } });
  if (positionals.length > 0) throw usageError(`check-config: unexpected argument ${JSON.stringify(positionals[0])} (use -c FILE)`);
  try {
    const { config, path, scorers } = loadCliConfig(values.config, cli);
    const judgeOn = judgeEnabled(resolveJudgeSettings(config.judge));
    const missing = judgeRequirementIssues(config, scorers, judgeOn);
    if (missing.length > 0) throw new ConfigError(path ?? '<defaults>', missing);
    cli.output.error(`${path ?? '<defaults>'}: config is valid`);
    const agent = values['explain-sampling'];
    if (agent !== undefined) {
      const section = effectiveScorerSection(config, judgeOn);
      const kinds: Record<string, 'code' | 'judge'> = {};
      for (const [name, entry] of Object.entries(section)) kinds[name] = scorers.kindOf(entry.type);
      for (const line of explainSampling({ ...config, scorers: section }, agent, kinds)) await cli.output.record(line);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const issue of err.issues) cli.output.error(`${err.file}: ${issue.path || '(root)'}: ${issue.message}`);
    return 2;
  }
}
