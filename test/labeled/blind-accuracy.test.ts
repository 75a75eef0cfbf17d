/**
 * The embedded default (no config, no judge key) on the blind labeled set (test/fixtures/blind/): 648 runs of
 * 24 agents in three batches (12 agents, then 6 and 6 more, each later batch written to measure the rules on
 * writing they had not seen and scored before any rule changed for it), written from a brief
 * (scripts/fixtures/blind/BRIEF.md) by writers who never read the scorers, labels written before anything was
 * scored, recorded by scripts/fixtures/blind/ through AI SDK 6, OpenInference and the OTel GenAI conventions. A
 * third of each agent's scenarios (every third one, by position) is the holdout part, never looked at while
 * tuning: only its totals were read.
 *
 * These are regression floors of what the rules reach today (session 12 of issue 28), not the targets,
 * which are not met yet: the tuning part gets 383 of 432 right (88.7 %) with no false alarm (0 of 245;
 * target 95 % and 3 %), the holdout part 166 of 216 (76.9 %) with 12 of 116 (10.3 %; target 90 % and 5 %), and
 * contradictions plus fabrications are caught at 72 % / 59 % (target 85 %). The numbers are printed by
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

  it('keeps false alarms on the tuning part at most 1 % and gets at least 87 % of it right', () => {
    const tune = report.splits.tune;
    expect(tune?.falseAlarmRate).toBeLessThanOrEqual(0.01);
    expect(tune?.accuracy).toBeGreaterThanOrEqual(0.87);
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
