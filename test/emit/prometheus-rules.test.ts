import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROMTOOL_BIN, hasPromtool } from './prometheus-process.js';

const run = promisify(execFile);
const dir = fileURLToPath(new URL('../../config/prometheus/', import.meta.url));

describe.skipIf(!hasPromtool)('shipped Prometheus rules (needs /usr/bin/promtool: apt-get install prometheus)', () => {
  it('pass promtool check rules', async () => {
    const { stdout } = await run(PROMTOOL_BIN, ['check', 'rules', 'rules.yml'], { cwd: dir });
    expect(stdout).toContain('SUCCESS: 5 rules found');
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
    expect(alerts).toHaveLength(4);
    const cases = tests.tests.flatMap((t) => t.alert_rule_test ?? []);
    for (const alert of alerts) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(mine.some((c) => c.exp_alerts.length > 0), `${alert} fires`).toBe(true);
      expect(mine.some((c) => c.exp_alerts.length === 0), `${alert} is quiet at some point`).toBe(true);
    }
  });
});
