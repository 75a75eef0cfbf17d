/**
 * Claim grounding skips a pass over a claim when a cheap literal test says no match of it can be there
 * (src/scorers/code/claim-grounding/specifics.ts, `HINTS`). A prefilter that misses a word the pass would
 * match loses a specific silently, so every word of the vocabulary the passes are built from is read here,
 * in the three ways a text writes it, and must still give its specific. Expected values come from the
 * vocabulary (the weekday, month and number each word names), not from running the code.
 */
import { describe, expect, it } from 'vitest';
import { extractSpecifics, type Specific } from '../../../src/scorers/code/claim-grounding/specifics.js';
import { letterOrDigit } from '../../../src/scorers/code/claim-grounding/sources.js';
import { MONTHS, NUMBER_WORDS, WEEKDAYS } from '../../../src/scorers/code/claim-grounding/vocabulary.js';

const cases = (word: string): string[] => [word, word[0]?.toUpperCase() + word.slice(1), word.toUpperCase()];
const ofKind = <K extends Specific['kind']>(text: string, kind: K, ref?: string): Extract<Specific, { kind: K }>[] =>
  extractSpecifics(text, ref ? { ref } : {}).specifics.filter((s): s is Extract<Specific, { kind: K }> => s.kind === kind);

describe('claim-grounding prefilters keep every word the passes know', () => {
  it('every weekday name, as a weekday', () => {
    for (const [name, weekday] of Object.entries(WEEKDAYS)) {
      for (const w of cases(name)) expect(ofKind(`The store opens on ${w}.`, 'date').map((d) => d.weekday), w).toContain(weekday);
    }
  });

  it('every month name, in a written date with its day', () => {
    for (const [name, month] of Object.entries(MONTHS)) {
      // "may" is a month only when written "May" (specifics.ts: it is also a verb).
      for (const w of name === 'may' ? ['May'] : cases(name)) {
        const mm = String(month).padStart(2, '0');
        expect(ofKind(`It shipped on 14 ${w} 2025.`, 'date').map((d) => d.day), w).toContain(`2025-${mm}-14`);
        expect(ofKind(`It shipped on ${w} 14, 2025.`, 'date').map((d) => d.day), w).toContain(`2025-${mm}-14`);
      }
    }
  });

  it('every number word, with a unit and with a noun', () => {
    for (const [word, value] of Object.entries(NUMBER_WORDS)) {
      for (const w of cases(word)) {
        expect(ofKind(`Delivery takes ${w} days.`, 'number').map((n) => n.value), w).toContain(value);
        expect(ofKind(`The hotel has ${w} rooms left.`, 'number').map((n) => n.value), w).toContain(value);
      }
    }
  });

  it('relative days against the run day (2026-01-01, a Thursday)', () => {
    const ref = '2026-01-01';
    const expected: Record<string, string> = { yesterday: '2025-12-31', today: '2026-01-01', tomorrow: '2026-01-02', 'the day after tomorrow': '2026-01-03', 'next monday': '2026-01-05' };
    for (const [phrase, day] of Object.entries(expected)) {
      for (const w of cases(phrase)) expect(ofKind(`It arrives ${w}.`, 'date', ref).map((d) => d.day), w).toContain(day);
    }
  });

  it('money in every currency the pass reads', () => {
    for (const text of ['It costs $12.50.', 'It costs €12.50.', 'It costs £12.50.', 'It costs ¥12.50.', 'It costs USD 12.50.', 'It costs 12.50 EUR.', 'It costs 12.50 dollars.', 'It costs 12.50 Euros.', 'It costs 12.50 pounds.', 'It costs 12.50 yen.', 'It costs CHF 12.50.', 'It costs 12.50 gbp.']) {
      expect(ofKind(text, 'number').some((n) => n.value === 12.5 && n.dim === 'money'), text).toBe(true);
    }
  });

  it('times, place ids and ids with capitals next to digits', () => {
    for (const [text, minutes] of [['Boarding at 5 pm.', 17 * 60], ['Boarding at 5:40PM.', 17 * 60 + 40], ['Boarding at 17:40.', 17 * 60 + 40], ['Boarding at Noon.', 12 * 60]] as const) {
      expect(ofKind(text, 'time').map((t) => t.minutes), text).toContain(minutes);
    }
    for (const [text, id] of [['Go to GATE B12 now.', 'B12'], ['Go to Platform 9 now.', '9'], ['Your seat 14B is by the window.', '14B']] as const) {
      expect(ofKind(text, 'id').map((i) => i.text), text).toContain(id);
    }
    expect(ofKind('Your code is XK42PQ.', 'id').map((i) => i.text)).toContain('XK42PQ');
  });

  it('a long s (ſ), which the passes fold to s but lowercasing keeps, still reads its word', () => {
    // /seat/iu matches `ſeat`; a prefilter reading the lowercase text alone would not see "seat".
    expect(ofKind('Go to ſeat 14B now.', 'id').map((i) => i.text)).toContain('14B');
  });

  it('reading only quantities (the given text) finds the same numbers, dates and times as a full read', () => {
    // The given text is compared on these three kinds only (classify.ts); `quantities` stops before names and
    // statuses, so anything it loses or adds here would change a verdict of "given".
    const texts = [
      'Order A-1009: 3 items, $1,276.40 total, shipped 2025-12-31 at 5 pm by DHL; arrives tomorrow (Friday).',
      'Ship it in two days, not 14 Mar 2026; the 18°C forecast for Lisbon says 81% humidity at 17:40.',
      'Seat 14B, Gate B12, boarding at noon on March 3. Room for twelve guests, 2 nights, €240 each.',
      'Nothing to count here, only Names Like Nimbus Rain Jacket and statuses like cancelled.',
      'Total: 1276.40. Balance left, 12.',
      '',
    ];
    const quantities = (s: Specific): boolean => s.kind === 'number' || s.kind === 'date' || s.kind === 'time';
    for (const ref of [undefined, '2026-01-01']) {
      for (const text of texts) {
        const options = { source: true, ...(ref ? { ref } : {}) };
        const full = extractSpecifics(text, options).specifics.filter(quantities);
        expect(extractSpecifics(text, { ...options, quantities: true }).specifics.filter(quantities), text).toEqual(full);
      }
    }
    expect(extractSpecifics(texts[0] as string, { source: true, quantities: true }).specifics.filter(quantities).length).toBeGreaterThan(3);
  });

  it('letterOrDigit, the word test of content words and name mentions, is `[\\p{L}\\p{N}]` on every code point', () => {
    const oracle = /^[\p{L}\p{N}]$/u;
    const wrong: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      // A lone surrogate is no letter: the `u` pattern reads it as itself.
      if (letterOrDigit(cp) !== oracle.test(String.fromCodePoint(cp))) wrong.push(cp);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});
