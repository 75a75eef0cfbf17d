/** Tables fitted to the terminal width (src/cli/table.ts). */
import { describe, expect, it } from 'vitest';
import { cut, fitWidths, formatTable, terminalWidth, textWidth, type Column } from '../../src/cli/table.js';

const COLS: Column[] = [{ header: 'AGENT', max: 12 }, { header: 'SCORE', align: 'right' }, { header: 'INPUT', weight: 1, min: 6 }, { header: 'OUTPUT', weight: 3, min: 6 }];
const ROWS = [
  ['weather-agent', '0.50', 'What is the weather in Lisbon right now?', 'It is 21 °C and sunny in Lisbon right now, with a light breeze from the west.'],
  ['order-agent', '1', 'Where is my order?', 'Shipped.'],
];

describe('formatTable', () => {
  it('keeps natural widths when everything fits, right-aligning where asked', () => {
    const text = formatTable([{ header: 'AGENT' }, { header: 'SCORE', align: 'right' }], [['weather', '0.50'], ['x', '1']], 80);
    expect(text).toBe('AGENT    SCORE\nweather   0.50\nx            1\n');
  });

  it('never writes a line wider than the width, for any width from 40 to 200', () => {
    for (let width = 40; width <= 200; width += 7) {
      for (const line of formatTable(COLS, ROWS, width).trimEnd().split('\n')) expect(textWidth(line), `width ${width}: ${line}`).toBeLessThanOrEqual(width);
    }
  });

  it('shrinks the flexible columns by weight and leaves the fixed ones alone', () => {
    const widths = fitWidths(COLS, ROWS, 80);
    // AGENT is capped at 12, SCORE is its natural 5; 3 gaps of 2.
    expect(widths[0]).toBe(12);
    expect(widths[1]).toBe(5);
    const flex = 80 - 12 - 5 - 6;
    expect((widths[2] ?? 0) + (widths[3] ?? 0)).toBe(flex);
    // Weighted 1:3 above their minimums of 6 (both natural widths are larger than their shares); a
    // rounding remainder of at most one column per flexible column goes to the first.
    const share = 6 + ((flex - 12) * 1) / 4;
    expect(Math.abs((widths[2] ?? 0) - share)).toBeLessThanOrEqual(1);
    expect(widths[3]).toBeGreaterThan(widths[2] ?? 0);
  });

  it('cuts a cell with an ellipsis and turns control characters into spaces', () => {
    expect(cut('abcdef', 4)).toBe('abc…');
    expect(cut('abc', 4)).toBe('abc');
    const text = formatTable(['A'], [['x\ny\tz']], 20);
    expect(text).toBe('A\nx y z\n');
  });

  it('uses the terminal width on a TTY, else 120', () => {
    expect(terminalWidth({ isTTY: true, columns: 90 })).toBe(90);
    expect(terminalWidth({ isTTY: false, columns: 90 })).toBe(120);
    expect(terminalWidth({})).toBe(120);
  });
});
