/** The progress line's rate and ETA: nothing absurd on the first tick ("512000/s ETA 0s", issue #32). */
import { describe, expect, it } from 'vitest';
import { format, MIN_RATE_WINDOW_S, rateOf } from '../../src/cli/progress.js';

const options = { barCompleteString: '='.repeat(24), barIncompleteString: '-'.repeat(24), barsize: 24, barGlue: '', autopaddingChar: '' } as never;
const line = (value: number, total: number, elapsedMs: number, known = true): string => {
  const now = Date.now();
  const params = { value, total, progress: total > 0 ? value / total : 0, startTime: now - elapsedMs, stopTime: now, eta: 0 } as never;
  return format(options, params, { label: 'score', unit: 'traces', known, extra: '' });
};

describe('progress rate and ETA', () => {
  it('in the first second: no rate and no ETA, however many were counted', () => {
    expect(line(512, 3000, 3)).toBe('score [====--------------------] 512/3000 traces  17%  -/s  ETA ?');
    expect(line(512, 0, 3, false)).toBe('score 512 traces  -/s');
    expect(rateOf(512, 0.003)).toBeUndefined();
  });

  it('once finished, the average rate of the whole run, however short', () => {
    expect(line(3000, 3000, 500)).toBe('score [========================] 3000/3000 traces  100%  6000/s  ETA 0s');
  });

  it('after it, the rate over the elapsed time and the ETA from it', () => {
    expect(line(512, 1024, 2000)).toBe('score [============------------] 512/1024 traces  50%  256/s  ETA 2s');
    expect(line(30, 0, 4000, false)).toBe('score 30 traces  7.50/s');
    expect(rateOf(10, MIN_RATE_WINDOW_S)).toBe(10 / MIN_RATE_WINDOW_S);
  });
});
