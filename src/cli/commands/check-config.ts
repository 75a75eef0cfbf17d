/**
 * `tracejudge check-config [-c FILE] [--explain-sampling AGENT]`: validates a config in one pass
 * (src/cli/config-check.ts). Every problem goes to stderr, one per line, as `FILE: key.path: message`; exit
 * 2 when there is any; a file that cannot be read is one `tracejudge: config file … does not exist` line. With
 * `--explain-sampling AGENT`, the effective sampling rate and rules per scorer for that agent are printed
 * on stdout.
 */
import { resolveConfigPath } from '../../config/load.js';
import { dirname } from 'node:path';
import { explainSampling } from '../../sampling/explain.js';
import { withEffectiveKind } from '../../sampling/kind.js';
import { createScorerRegistry } from '../../scorers/registry.js';
import { effectiveScorerSection } from '../../service/scorers.js';
import { checkConfigFile } from '../config-check.js';
import type { CliContext } from '../context.js';
import { configSource } from '../load-cli-config.js';
import { CHECK_CONFIG } from '../specs.js';
import { parseCommandArgs, usageError } from '../usage.js';

export async function checkConfigCommand(args: readonly string[], cli: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(CHECK_CONFIG, args);
  if (positionals.length > 0) throw usageError(`check-config: unexpected argument ${JSON.stringify(positionals[0])} (use -c FILE)`);
  const env = process.env;
  const scorers = createScorerRegistry();
  const report = await checkConfigFile(resolveConfigPath(values.config, env), { env, scorers, source: configSource(values.config, env) });
  if (!report.config) {
    for (const issue of report.issues) cli.output.error(`${report.file}: ${issue.path || '(root)'}: ${issue.message}`);
    return 2;
  }
  const { config } = report;
  cli.output.error(`${report.file}: config is valid`);
  const agent = values['explain-sampling'];
  if (agent !== undefined) {
    const section = effectiveScorerSection(config, report.judgeOn === true);
    const kinds: Record<string, 'code' | 'judge'> = {};
    for (const [name, entry] of Object.entries(section)) kinds[name] = scorers.kindOf(entry.type);
    // A custom module is sampled as what it is (declared `kind`, else detected from its steps), as `serve` does.
    const custom = Object.fromEntries(Object.entries(section).filter(([, e]) => e.type === 'custom'));
    for (const s of await scorers.buildAll(custom, { configDir: dirname(report.file) })) kinds[s.name] = withEffectiveKind(s, custom[s.name]?.kind).kind;
    for (const line of explainSampling({ ...config, scorers: section }, agent, kinds)) await cli.output.record(line);
  }
  return 0;
}
