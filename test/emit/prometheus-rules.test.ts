import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { PROMTOOL_BIN, hasPromtool } from './prometheus-process.js';

const run = promisify(execFile);
const dir = fileURLToPath(new URL('../../config/prometheus/', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

describe.skipIf(!hasPromtool)('shipped Prometheus rules (needs /usr/bin/promtool: apt-get install prometheus)', () => {
  it('pass promtool check rules', async () => {
    const { stdout } = await run(PROMTOOL_BIN, ['check', 'rules', 'rules.yml'], { cwd: dir });
    expect(stdout).toContain('SUCCESS: 7 rules found');
  });

  it('fire and clear every alert in promtool test rules', async () => {
    const { stdout } = await run(PROMTOOL_BIN, ['test', 'rules', 'rules.test.yml'], { cwd: dir });
    expect(stdout).toContain('SUCCESS');
  });
});

interface RulesFile {
  groups: { rules: { alert?: string }[] }[];
}
interface RulesTest {
  tests: { alert_rule_test?: { eval_time: string; alertname: string; exp_alerts: unknown[] }[] }[];
}

describe('rules unit-test coverage', () => {
  it('has, for every alert, a case where it fires and a later case where it is clear or a case before it fires', () => {
    const rules = parse(readFileSync(`${dir}rules.yml`, 'utf8')) as RulesFile;
    const tests = parse(readFileSync(`${dir}rules.test.yml`, 'utf8')) as RulesTest;
    const alerts = rules.groups.flatMap((g) => g.rules).flatMap((r) => (r.alert ? [r.alert] : []));
    expect(alerts).toHaveLength(6);
    const cases = tests.tests.flatMap((t) => t.alert_rule_test ?? []);
    for (const alert of alerts) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(mine.some((c) => c.exp_alerts.length > 0), `${alert} fires`).toBe(true);
      expect(mine.some((c) => c.exp_alerts.length === 0), `${alert} is quiet at some point`).toBe(true);
    }
  });
});

/**
 * The outcomes of `tracejudge.judge.requests` as the code records them: the judge client's `Outcome` union and the
 * economics layer's reuse outcomes. Everything except these is an error outcome.
 */
const NOT_ERRORS: Readonly<Record<string, string>> = {
  success: 'the request was answered',
  retry: 'an attempt that was retried; the request ends in another outcome',
  cached: 'an answer reused from the cache, no request',
  shared: 'an answer shared within a run, no request',
};

function recordedOutcomes(): string[] {
  const client = readFileSync(`${root}src/judge/ai-sdk-judge.ts`, 'utf8');
  const union = /type Outcome = ([^;]+);/.exec(client)?.[1] ?? '';
  const economics = readFileSync(`${root}src/judge/economics/economic-judge.ts`, 'utf8');
  const reuse = /outcome: ('[a-z_]+'(?: \| '[a-z_]+')*)\)/.exec(economics)?.[1] ?? '';
  return [...`${union} | ${reuse}`.matchAll(/'([a-z_]+)'/g)].map((m) => m[1] as string);
}

function documentedOutcomes(): string[] {
  const row = readFileSync(`${root}docs/records.md`, 'utf8').split('\n').find((l) => l.startsWith('| `tracejudge.judge.requests` |')) ?? '';
  const cell = /`outcome` = ([^,]+(?:\\\| `[a-z_]+`)*)/.exec(row)?.[1] ?? '';
  return [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1] as string);
}

describe('judge error outcomes', () => {
  const outcomes = recordedOutcomes();
  const errors = outcomes.filter((o) => !(o in NOT_ERRORS));

  it('the recorded outcomes are the documented ones, and include quota', () => {
    expect(outcomes.length).toBeGreaterThanOrEqual(8);
    expect(outcomes.sort()).toEqual(documentedOutcomes().sort());
    expect(errors).toContain('quota');
    for (const o of Object.keys(NOT_ERRORS)) expect(outcomes, o).toContain(o);
  });

  describe.skipIf(!hasPromtool)('TracejudgeJudgeErrorRateHigh (promtool test rules, generated cases)', () => {
    const rule = (parse(readFileSync(`${dir}rules.yml`, 'utf8')) as { groups: { rules: { alert?: string; labels?: Record<string, string>; annotations: Record<string, string> }[] }[] }).groups
      .flatMap((g) => g.rules)
      .find((r) => r.alert === 'TracejudgeJudgeErrorRateHigh');
    /** The alert as promtool must see it when `failed` of `requests` per minute fail (annotations rendered like Prometheus' humanizePercentage). */
    const firing = (failed: number, requests: number): unknown[] => [
      {
        exp_labels: rule?.labels ?? {},
        exp_annotations: {
          summary: (rule?.annotations.summary ?? '').replace('{{ $value | humanizePercentage }}', `${Number(((failed / requests) * 100).toPrecision(4))}%`),
          description: rule?.annotations.description ?? '',
        },
      },
    ];
    const series = (outcome: string, perMinute: number): { series: string; values: string } => ({ series: `tracejudge_judge_requests_total{outcome="${outcome}"}`, values: `0+${perMinute}x40` });
    const at = (minute: number, exp_alerts: unknown[]): { eval_time: string; alertname: string; exp_alerts: unknown[] } => ({ eval_time: `${minute}m`, alertname: 'TracejudgeJudgeErrorRateHigh', exp_alerts });
    const cases: [string, { series: string; values: string }[], unknown[]][] = [
      // Each error outcome alone: 5 of 15 requests a minute fail from the start: pending at 8 minutes, firing at 20.
      ...errors.map((o): [string, { series: string; values: string }[], unknown[]] => [`${o} fires the alert`, [series('success', 10), series(o, 5)], [at(8, []), at(20, firing(5, 15))]]),
      // A retried attempt is not a failure.
      ['retry does not', [series('success', 10), series('retry', 50)], [at(20, [])]],
      // Reused answers are not requests: 2 failures in 12 requests fire (16.7%), which 100 reused answers a minute would dilute to 1.8%.
      ...['cached', 'shared'].map((o): [string, { series: string; values: string }[], unknown[]] => [`${o} answers are not counted`, [series('success', 10), series('error', 2), series(o, 100)], [at(20, firing(2, 12))]]),
      // Below the threshold: 1 of 11 (9%).
      ['quota below 10% does not', [series('success', 10), series('quota', 1)], [at(20, [])]],
    ];

    it.each(cases)('%s', async (_name, input_series, alert_rule_test) => {
      expect(rule).toBeDefined();
      const tmp = mkdtempSync(join(tmpdir(), 'tj-promtool-'));
      try {
        const file = join(tmp, 'judge-outcomes.test.yml');
        writeFileSync(file, stringify({ rule_files: [`${dir}rules.yml`], evaluation_interval: '1m', tests: [{ interval: '1m', input_series, alert_rule_test }] }));
        const result = await run(PROMTOOL_BIN, ['test', 'rules', file], { cwd: tmp }).then(
          (r) => r.stdout,
          (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
        );
        expect(result).toContain('SUCCESS');
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  });
});
