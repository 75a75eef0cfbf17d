/**
 * A custom scorer that makes no judge calls is sampled as a code scorer (built-in rate 1), whether its kind is
 * declared (`kind: code`) or detected (no prompt step); one with a judge step, or declared `kind: judge`, keeps
 * the judge rate (0.1). `serve` logs these effective rates at start (effectiveRates).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { effectiveRates } from '../../src/sampling/rates.js';
import { createSamplingPolicy } from '../../src/sampling/policy.js';
import { createScorerRegistry } from '../../src/scorers/registry.js';
import { buildServiceScorers, samplingKinds } from '../../src/service/scorers.js';
import { createSettings } from '../../src/service/settings.js';
import { silentLogger } from '../../src/telemetry/log.js';

const dir = fileURLToPath(new URL('./fixtures/custom/', import.meta.url));

async function build(scorers: Record<string, unknown>, sampling?: unknown) {
  const registry = createScorerRegistry();
  const config = parseConfig({ scorers, ...(sampling ? { sampling } : {}) }, '<test>', {}, { scorers: registry });
  const settings = createSettings(config, { env: {}, logger: silentLogger(), scorers: registry, prometheus: false });
  const { scorers: built } = await buildServiceScorers(config, settings);
  return { config, built };
}

describe('the kind of a custom scorer', () => {
  it('is detected: function steps only → code (rate 1); a prompt step → judge (rate 0.1)', async () => {
    const { config, built } = await build({
      plain: { type: 'custom', module: `${dir}function-only.ts` },
      judged: { type: 'custom', module: `${dir}judged.ts` },
    });
    expect(built.map((s) => [s.name, s.kind])).toEqual([['plain', 'code'], ['judged', 'judge']]);
    const policy = createSamplingPolicy(config.sampling, samplingKinds(built), 0);
    expect(effectiveRates(policy.compiled, built)).toEqual([
      { scorer: 'plain', kind: 'code', rate: 1, source: 'built-in (code scorer)' },
      { scorer: 'judged', kind: 'judge', rate: 0.1, source: 'built-in (judge scorer)' },
    ]);
  });

  it('is declared: kind wins over detection, both ways', async () => {
    const { built } = await build({
      plainAsJudge: { type: 'custom', module: `${dir}function-only.ts`, kind: 'judge' },
      judgedAsCode: { type: 'custom', module: `${dir}judged.ts`, kind: 'code' },
    });
    expect(built.map((s) => [s.name, s.kind])).toEqual([['plainAsJudge', 'judge'], ['judgedAsCode', 'code']]);
  });

  it('rejects another kind with the key path', async () => {
    await expect(build({ x: { type: 'custom', module: `${dir}function-only.ts`, kind: 'llm' } })).rejects.toThrow(/scorers\.x\.kind/);
  });

  it('effective rates name the config path and the agents that differ', async () => {
    const { config, built } = await build(
      { plain: { type: 'custom', module: `${dir}function-only.ts` }, tone: { type: 'tone' } },
      { default: { scorers: { tone: 0.5 } }, agents: { 'billing-*': { rate: 0.2 }, 'support-agent': { scorers: { tone: 0.5 } } } },
    );
    const policy = createSamplingPolicy(config.sampling, samplingKinds(built), 0);
    expect(effectiveRates(policy.compiled, built, Object.keys(config.sampling?.agents ?? {}))).toEqual([
      { scorer: 'plain', kind: 'code', rate: 1, source: 'built-in (code scorer)', agents: { 'billing-*': 0.2 } },
      { scorer: 'tone', kind: 'code', rate: 0.5, source: 'sampling.default.scorers.tone', agents: { 'billing-*': 0.2 } },
    ]);
  });
});

describe('check-config --explain-sampling shows the same kinds as serve', () => {
  it('a function-only module is listed as a code scorer at rate 1, a judged one at 0.1', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { runCli } = await import('../cli/run-cli.js');
    const tmp = mkdtempSync(join(tmpdir(), 'tj-kind-'));
    const file = join(tmp, 'kinds.yaml');
    writeFileSync(
      file,
      `scorers:\n  plain: { type: custom, module: ${dir}function-only.ts }\n  judged: { type: custom, module: ${dir}judged.ts }\n  declared: { type: custom, module: ${dir}function-only.ts, kind: judge }\n`,
    );
    const r = await runCli(['check-config', '-c', file, '--explain-sampling', 'support-agent']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/plain \(code\): rate 1\b/);
    expect(r.stdout).toMatch(/judged \(judge\): rate 0\.1\b/);
    expect(r.stdout).toMatch(/declared \(judge\): rate 0\.1\b/);
  });
});
