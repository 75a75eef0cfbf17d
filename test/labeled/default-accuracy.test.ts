/**
 * The embedded default (no config, no judge key) on the repo's labeled set (test/fixtures/labeled/, made by
 * scripts/fixtures/labeled/ with the real AI SDK and OpenInference against scripted models; labels written
 * from each scenario's intent): at least 95 % of verdicts right on the tuning part and 90 % on the holdout
 * part, which was set aside by a fixed rule before any tuning. Verdict: a fail record → fail; a pass record
 * and no fail → pass; a run without either → never a pass.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectRuns } from '../../src/calibrate/collect.js';
import { readLabels } from '../../src/calibrate/labels.js';
import { calibrationReport, type CalibrationReport } from '../../src/calibrate/report.js';
import { parseConfig } from '../../src/config/load.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';

const dir = fileURLToPath(new URL('../fixtures/labeled/', import.meta.url));
let report: CalibrationReport;

beforeAll(async () => {
  const registry = createScorerRegistry();
  const config = parseConfig({}, '<defaults>', {}, { scorers: registry });
  const settings = createSettings(config, { env: {}, logger: silentLogger(), scorers: registry, prometheus: false });
  const { runs, scorers } = await collectRuns(config, settings, [`${dir}aisdk6.json`, `${dir}openinference.json`]);
  report = calibrationReport(runs, scorers, readLabels([`${dir}labels.jsonl`]), { targetPrecision: 0.9 });
}, 120_000);

describe('the embedded default on the labeled set', () => {
  it('is the no-judge set: claim grounding, answered, tool errors', () => {
    expect(report.scorers.map((s) => [s.name, s.type, s.kind])).toEqual([
      ['grounding', 'claim-grounding', 'code'],
      ['answered', 'answered', 'code'],
      ['tool-errors', 'no-tool-errors', 'code'],
    ]);
  });

  it('covers at least 60 runs of at least 6 agents, every run labeled, both parts present', () => {
    expect(report.runs.found).toBeGreaterThanOrEqual(60);
    expect(report.runs.labeled).toBe(report.runs.found);
    expect(report.runs.labelsWithoutRun).toEqual([]);
    const labels = readLabels([`${dir}labels.jsonl`]);
    expect(new Set(labels.map((l) => l.agent)).size).toBeGreaterThanOrEqual(6);
    expect(Object.keys(report.splits).sort()).toEqual(['holdout', 'tune']);
  });

  it('gets at least 95 % of the tuning part and 90 % of the holdout part right', () => {
    const tune = report.splits.tune;
    const holdout = report.splits.holdout;
    expect(tune?.accuracy, JSON.stringify(report.misjudged.filter((m) => m.split === 'tune'), null, 1)).toBeGreaterThanOrEqual(0.95);
    expect(holdout?.accuracy).toBeGreaterThanOrEqual(0.9);
  });
});
