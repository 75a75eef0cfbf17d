/**
 * The embedded default (no config, no judge key) on the blind labeled set (test/fixtures/blind/): 486 runs of
 * 18 agents (two batches: 12 agents, then 6 more written later to measure the rules on unseen writing) written from a brief (scripts/fixtures/blind/BRIEF.md) by writers who never read the scorers,
 * labels written before anything was scored, recorded by scripts/fixtures/blind/ through AI SDK 6,
 * OpenInference and the OTel GenAI conventions. A third of each agent's scenarios (every third one, by
 * position) is the holdout part, never looked at while tuning: only its totals were read.
 *
 * These are regression floors of what the rules reach today (session 12 of issue 28), not the targets,
 * which are not met yet: the tuning part gets 280 of 324 right (86.4 %) with no false alarm (target 95 % and
 * 3 %), the holdout part 126 of 162 (77.8 %) with 9 of 88 (10.2 %) false alarms (target 90 % and 5 %), and
 * contradictions plus fabrications are caught at 69 % / 62 % (target 85 %). The numbers are printed by
 * `npm run bench` (scenario verdicts) too.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readLabels } from '../../src/calibrate/labels.js';
import type { CalibrationReport } from '../../src/calibrate/report.js';
import { defaultReport } from './report.js';

const dir = fileURLToPath(new URL('../fixtures/blind/', import.meta.url));
let report: CalibrationReport;

beforeAll(async () => {
  report = await defaultReport(dir, ['aisdk6.json', 'openinference.json', 'genai.json']);
}, 180_000);

describe('the embedded default on the blind set', () => {
  it('covers at least 300 runs of at least 12 agents in three conventions, every run labeled, a third kept aside', () => {
    expect(report.runs.found).toBeGreaterThanOrEqual(300);
    expect(report.runs.labeled).toBe(report.runs.found);
    expect(report.runs.labelsWithoutRun).toEqual([]);
    const labels = readLabels([`${dir}labels.jsonl`]);
    expect(new Set(labels.map((l) => l.agent)).size).toBeGreaterThanOrEqual(12);
    expect(report.splits.holdout?.runs).toBe(Math.round(report.runs.found / 3));
  });

  it('keeps false alarms on the tuning part at most 1 % and gets at least 85 % of it right', () => {
    const tune = report.splits.tune;
    expect(tune?.falseAlarmRate).toBeLessThanOrEqual(0.01);
    expect(tune?.accuracy).toBeGreaterThanOrEqual(0.85);
  });

  it('on the holdout part: at least 76 % right, false alarms at most 11 % (regression floors, see above)', () => {
    const holdout = report.splits.holdout;
    expect(holdout?.accuracy).toBeGreaterThanOrEqual(0.76);
    expect(holdout?.falseAlarmRate).toBeLessThanOrEqual(0.11);
  });

  it('catches every failed tool call as an operational signal, and never a returned answer', () => {
    for (const part of ['tune', 'holdout']) {
      const tools = report.splitScorers[part]?.find((s) => s.name === 'tool-errors');
      expect([tools?.precision, tools?.recall], part).toEqual([1, 1]);
    }
    expect(report.operational).toEqual(['tool-errors']);
  });
});
