import { describe, expect, it } from 'vitest';
import { isCloserTo, roundToTwoDecimals } from '../../../src/scorers/utils/numeric.js';

describe('roundToTwoDecimals', () => {
  it.each([
    [1.005, 1.01],
    [0.1 + 0.2, 0.3],
    [0.125, 0.13],
    [2 / 3, 0.67],
    [0.735, 0.74],
    [0.4545, 0.45],
  ])('%s → %s', (x, want) => expect(roundToTwoDecimals(x)).toBe(want));
});

describe('isCloserTo', () => {
  it('is strict', () => {
    expect(isCloserTo(0.8, 1, 0)).toBe(true);
    expect(isCloserTo(0.5, 1, 0)).toBe(false);
    expect(isCloserTo(0.2, 1, 0)).toBe(false);
  });
});
