/**
 * `tracejudge check-config [-c FILE] [--explain-sampling AGENT]`: validates a config. Every problem goes
 * to stderr, one per line, as `FILE: key.path: message`; exit 2 when there is any. With
 * `--explain-sampling AGENT`, the effective sampling rate and rules per scorer for that agent are printed
 * on stdout.
 */
import { ConfigError } from '../../errors.js';
import { effectiveScorerSection, judgeRequirementIssues } from '../../pipeline/from-config.js';
import { explainSampling } from '../../sampling/explain.js';
import { judgeEnabled, resolveJudgeSettings } from '../../judge/settings.js';
import { getScorerType } from '../../scorers/registry.js';
import { loadCliConfig } from '../load-cli-config.js';
import { writeError, writeRecord } from '../output.js';
import { configOption, parseCommandArgs, usageError } from '../usage.js';

export function checkConfigCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('check-config', args, { ...configOption, 'explain-sampling': { type: 'string' } });
  if (positionals.length > 0) throw usageError(`check-config: unexpected argument ${JSON.stringify(positionals[0])} (use -c FILE)`);
  try {
    const { config, path } = loadCliConfig(values.config);
    const missing = judgeRequirementIssues(config);
    if (missing.length > 0) throw new ConfigError(path ?? '<defaults>', missing);
    writeError(`${path ?? '<defaults>'}: config is valid`);
    const agent = values['explain-sampling'];
    if (agent !== undefined) {
      const judgeOn = judgeEnabled(resolveJudgeSettings(config.judge));
      const section = effectiveScorerSection(config, judgeOn ? 'judge' : undefined);
      const kinds: Record<string, 'code' | 'judge'> = {};
      for (const [name, entry] of Object.entries(section)) kinds[name] = getScorerType(entry.type)?.kind ?? 'judge';
      const explained = explainSampling({ ...config, scorers: section }, agent, kinds);
      for (const line of explained) writeRecord(line);
    }
    return Promise.resolve(0);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const issue of err.issues) writeError(`${err.file}: ${issue.path || '(root)'}: ${issue.message}`);
    return Promise.resolve(2);
  }
}
