/**
 * The metrics of `tracejudge calibrate`, with "fail" as the positive class (an alert is a predicted fail):
 * the confusion matrix, precision, recall and F1, and the thresholds that maximise F1 and that reach a
 * target precision. Pure functions of (score, label) pairs.
 */
import type { ScoreDirection } from '../scorers/descriptor.js';
import type { Label } from './labels.js';

/** Predicted vs labeled, fail = positive. */
export interface Confusion {
  /** Predicted fail, labeled fail. */
  tp: number;
  /** Predicted fail, labeled pass (a false alert). */
  fp: number;
  /** Predicted pass, labeled fail (a missed failure). */
  fn: number;
  /** Predicted pass, labeled pass. */
  tn: number;
}

export interface Rates {
  /** tp / (tp + fp); null when nothing was predicted fail. */
  precision: number | null;
  /** tp / (tp + fn); null when nothing is labeled fail. */
  recall: number | null;
  /** 2·P·R / (P + R); null when either is null, 0 when both are 0. */
  f1: number | null;
  /** (tp + tn) / n; null for no runs. */
  accuracy: number | null;
  /** fp / (fp + tn): the share of pass-labeled runs given a fail (false alarms); null when none is labeled pass. */
  falseAlarmRate: number | null;
}

/** Count a list of (predicted, labeled) pairs. */
export function confusion(pairs: Iterable<{ predicted: Label; label: Label }>): Confusion {
  const c: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const { predicted, label } of pairs) {
    if (predicted === 'fail' && label === 'fail') c.tp++;
    else if (predicted === 'fail') c.fp++;
    else if (label === 'fail') c.fn++;
    else c.tn++;
  }
  return c;
}

/**
 * Rates of a confusion matrix.
 *
 * @example
 * ```ts
 * rates({ tp: 3, fp: 1, fn: 1, tn: 5 }); // { precision: 0.75, recall: 0.75, f1: 0.75, accuracy: 0.8, falseAlarmRate: 0.1667 }
 * ```
 */
export function rates(c: Confusion): Rates {
  const n = c.tp + c.fp + c.fn + c.tn;
  const precision = c.tp + c.fp === 0 ? null : c.tp / (c.tp + c.fp);
  const recall = c.tp + c.fn === 0 ? null : c.tp / (c.tp + c.fn);
  const f1 = precision === null || recall === null ? null : precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, accuracy: n === 0 ? null : (c.tp + c.tn) / n, falseAlarmRate: c.fp + c.tn === 0 ? null : c.fp / (c.fp + c.tn) };
}

/** The label a threshold gives a score, as the service labels it (a score equal to the threshold passes). */
export function predict(direction: ScoreDirection, threshold: number, score: number): Label {
  return (direction === 'lower' ? score > threshold : score < threshold) ? 'fail' : 'pass';
}

export interface ThresholdPoint extends Rates {
  threshold: number;
  confusion: Confusion;
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * Every threshold that gives a different labelling of `points`: the midpoints between consecutive distinct
 * scores, and one below the lowest and one above the highest (all pass / all fail, as the direction says).
 */
export function candidateThresholds(scores: readonly number[]): number[] {
  const distinct = [...new Set(scores)].sort((a, b) => a - b);
  if (distinct.length === 0) return [];
  const first = distinct[0] as number;
  const last = distinct[distinct.length - 1] as number;
  const out = [round6(first - 0.01)];
  for (let i = 0; i + 1 < distinct.length; i++) out.push(round6(((distinct[i] as number) + (distinct[i + 1] as number)) / 2));
  out.push(round6(last + 0.01));
  return out;
}

/** The metrics at each candidate threshold. */
export function sweep(direction: ScoreDirection, points: readonly { score: number; label: Label }[]): ThresholdPoint[] {
  return candidateThresholds(points.map((p) => p.score)).map((threshold) => {
    const c = confusion(points.map((p) => ({ predicted: predict(direction, threshold, p.score), label: p.label })));
    return { threshold, confusion: c, ...rates(c) };
  });
}

/** The threshold with the highest F1 (ties: the highest precision, then the threshold nearest `current`). */
export function bestF1(points: readonly ThresholdPoint[], current: number): ThresholdPoint | undefined {
  let best: ThresholdPoint | undefined;
  for (const p of points) {
    if (p.f1 === null) continue;
    if (
      !best ||
      p.f1 > (best.f1 as number) + 1e-12 ||
      (Math.abs(p.f1 - (best.f1 as number)) <= 1e-12 &&
        ((p.precision ?? 0) > (best.precision ?? 0) + 1e-12 ||
          (Math.abs((p.precision ?? 0) - (best.precision ?? 0)) <= 1e-12 && Math.abs(p.threshold - current) < Math.abs(best.threshold - current))))
    ) {
      best = p;
    }
  }
  return best;
}

/** The threshold that reaches `target` precision with the highest recall (ties: the highest F1); undefined when none does. */
export function atPrecision(points: readonly ThresholdPoint[], target: number): ThresholdPoint | undefined {
  let best: ThresholdPoint | undefined;
  for (const p of points) {
    if (p.precision === null || p.precision < target - 1e-12 || p.recall === null) continue;
    if (!best || p.recall > (best.recall as number) + 1e-12 || (Math.abs(p.recall - (best.recall as number)) <= 1e-12 && (p.f1 ?? 0) > (best.f1 ?? 0))) best = p;
  }
  return best;
}
