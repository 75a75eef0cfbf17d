/**
 * The quality verdict of `calibrate` (docs/calibration.md): operational scorers (no-tool-errors) are kept out,
 * a chit-chat run that only an operational scorer scored passes when it passed, and false alarms are
 * FP / (FP + TN). Expected values are worked out by hand from the records below.
 */
import { describe, expect, it } from 'vitest';
import { verdictOf } from '../../src/calibrate/report.js';
import { rates } from '../../src/calibrate/metrics.js';
import type { ScoreRecord } from '../../src/model/score-record.js';

const rec = (scorer: string, label: 'pass' | 'fail'): ScoreRecord => ({ scorer, label }) as unknown as ScoreRecord;
const OPS = new Set(['tool-errors']);

describe('the quality verdict', () => {
  it('leaves an operational fail out: an honest answer after a failed call passes', () => {
    expect(verdictOf([rec('grounding', 'pass'), rec('tool-errors', 'fail')], OPS)).toBe('pass');
    expect(verdictOf([rec('grounding', 'pass'), rec('tool-errors', 'fail')])).toBe('fail');
  });

  it('fails on any quality fail, and passes a run only an operational scorer passed', () => {
    expect(verdictOf([rec('grounding', 'fail'), rec('tool-errors', 'pass')], OPS)).toBe('fail');
    expect(verdictOf([rec('tool-errors', 'pass')], OPS)).toBe('pass');
    expect(verdictOf([rec('tool-errors', 'fail')], OPS)).toBe('unscored');
    expect(verdictOf([], OPS)).toBe('unscored');
  });

  it('counts false alarms among the pass-labeled runs only', () => {
    expect(rates({ tp: 3, fp: 1, fn: 1, tn: 5 }).falseAlarmRate).toBeCloseTo(1 / 6, 12);
    expect(rates({ tp: 3, fp: 0, fn: 1, tn: 0 }).falseAlarmRate).toBeNull();
  });
});
