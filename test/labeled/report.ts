/** The embedded default (no config, no judge key) measured on a labeled set, as `tracejudge calibrate` does. */
import { collectRuns } from '../../src/calibrate/collect.js';
import { readLabels } from '../../src/calibrate/labels.js';
import { calibrationReport, type CalibrationReport } from '../../src/calibrate/report.js';
import { parseConfig } from '../../src/config/load.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';

/** The report of the embedded default on `files` of `dir`, with `dir`/labels.jsonl. */
export async function defaultReport(dir: string, files: readonly string[]): Promise<CalibrationReport> {
  const registry = createScorerRegistry();
  const config = parseConfig({}, '<defaults>', {}, { scorers: registry });
  const settings = createSettings(config, { env: {}, logger: silentLogger(), scorers: registry, prometheus: false });
  const { runs, scorers } = await collectRuns(config, settings, files.map((f) => `${dir}${f}`));
  return calibrationReport(runs, scorers, readLabels([`${dir}labels.jsonl`]), { targetPrecision: 0.9 });
}
