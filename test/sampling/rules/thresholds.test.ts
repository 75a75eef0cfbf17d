import { describe, expect, it } from 'vitest';
import { latencyPredicate } from '../../../src/sampling/rules/latency.js';
import { tokensPredicate, type TokenCount } from '../../../src/sampling/rules/tokens.js';
import { makeInput, type InputOptions } from '../helpers.js';

const ns = (ms: number): bigint => BigInt(ms) * 1_000_000n;
const dur = (ms: number): InputOptions => ({ span: { startTimeUnixNano: ns(1_700_000_000_000), endTimeUnixNano: ns(1_700_000_000_000 + ms) } });

const noSpanTimes: InputOptions = { span: { startTimeUnixNano: 0n, endTimeUnixNano: 0n } };

describe('latency rule', () => {
  const cases: [string, { aboveMs?: number; belowMs?: number }, InputOptions, boolean][] = [
    ['slow run above threshold', { aboveMs: 30_000 }, dur(45_000), true],
    ['fast run below threshold', { aboveMs: 30_000 }, dur(1_000), false],
    ['exactly at threshold is not above', { aboveMs: 1_000 }, dur(1_000), false],
    ['belowMs', { belowMs: 500 }, dur(200), true],
    ['window, inside', { aboveMs: 100, belowMs: 500 }, dur(200), true],
    ['window, outside', { aboveMs: 100, belowMs: 500 }, dur(900), false],
    [
      'falls back to RFC 3339 times when the agent span has no times',
      { aboveMs: 1_500 },
      { ...noSpanTimes, run: { startTime: '2024-01-01T00:00:00.000Z', endTime: '2024-01-01T00:00:02.000Z' } },
      true,
    ],
    ['unknown duration does not match', { belowMs: 10 ** 9 }, { ...noSpanTimes, run: { startTime: 'bad', endTime: 'bad' } }, false],
  ];
  it.each(cases)('%s', (_name, options, input, want) => {
    expect(latencyPredicate(options).evaluate(makeInput(input))).toBe(want);
  });

  it('uses RFC 3339 times when the agent span is not among the spans', () => {
    const input = makeInput({ run: { startTime: '2024-01-01T00:00:00.000Z', endTime: '2024-01-01T00:00:09.000Z' } });
    const withoutAgent = { ...input, spans: input.spans.filter((s) => s.spanId !== input.run.spanId) };
    expect(latencyPredicate({ aboveMs: 5_000 }).evaluate(withoutAgent)).toBe(true);
    expect(latencyPredicate({ aboveMs: 5_000 }).evaluate(input)).toBe(false);
  });
});

describe('tokens rule', () => {
  const usage: InputOptions = { run: { usage: { inputTokens: 8000, outputTokens: 3000 } } };
  const cases: [string, { count?: TokenCount; above?: number; below?: number }, InputOptions, boolean][] = [
    ['total above', { above: 10_000 }, usage, true],
    ['total not above', { above: 20_000 }, usage, false],
    ['input above', { count: 'input', above: 5_000 }, usage, true],
    ['output above', { count: 'output', above: 5_000 }, usage, false],
    ['output below', { count: 'output', below: 5_000 }, usage, true],
    ['no usage never matches', { below: 10 ** 9 }, {}, false],
  ];
  it.each(cases)('%s', (_name, options, input, want) => {
    expect(tokensPredicate(options).evaluate(makeInput(input))).toBe(want);
  });
});
