/**
 * `tracejudge calibrate [--labels FILE] [-c FILE] [--precision 0.9] [--label-attribute KEY]
 * [--format table|json] FILE...`: scores labeled runs with the configured scorers (the same engine as
 * `score`, every run scored) and prints, per scorer, precision / recall / F1 for "fail", the confusion
 * matrix, the threshold that maximises F1 and the one that reaches the target precision, and the verdict
 * accuracy of the configured set (docs/calibration.md). Labels come from the files, else from the agent
 * span attribute (default `tracejudge.label`).
 */
import { collectRuns } from '../../calibrate/collect.js';
import { formatReport } from '../../calibrate/format.js';
import { readLabels } from '../../calibrate/labels.js';
import { calibrationReport } from '../../calibrate/report.js';
import { createSettings } from '../../service/settings.js';
import type { CliContext } from '../context.js';
import { loadCliConfig } from '../load-cli-config.js';
import { CALIBRATE } from '../specs.js';
import { parseCommandArgs, usageError } from '../usage.js';

export async function calibrateCommand(args: readonly string[], cli: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(CALIBRATE, args);
  const format = values.format ?? 'table';
  const target = Number(values.precision ?? '0.9');
  if (!Number.isFinite(target) || target <= 0 || target > 1) throw usageError(`calibrate: --precision must be a number in (0, 1], got ${JSON.stringify(values.precision)}`);
  if (positionals.length === 0) throw usageError('calibrate: no input files (use - for stdin)');
  const labelAttribute = values['label-attribute'] ?? 'tracejudge.label';
  if (labelAttribute === '') throw usageError('calibrate: --label-attribute needs a key');
  const rows = values.labels === undefined ? [] : readLabels([values.labels]);

  const { config, path, scorers } = loadCliConfig(values.config, cli);
  const settings = createSettings(config, { logger: cli.logger, secrets: cli.secrets, scorers, prometheus: false });
  const collected = await collectRuns(config, settings, positionals, path);
  const report = calibrationReport(collected.runs, collected.scorers, rows, { targetPrecision: target, labelAttribute });
  if (report.runs.labeled === 0) {
    throw usageError(`calibrate: none of the ${report.runs.found} runs found has a label (give --labels FILE, or set the span attribute ${labelAttribute})`);
  }
  if (report.runs.labelsWithoutRun.length > 0) {
    const shown = report.runs.labelsWithoutRun.slice(0, 5).join(', ');
    cli.output.error(`calibrate: ${report.runs.labelsWithoutRun.length} label(s) matched no run (${shown}${report.runs.labelsWithoutRun.length > 5 ? ', …' : ''})`);
  }
  await cli.output.record(format === 'json' ? JSON.stringify(report) : formatReport(report));
  return 0;
}
