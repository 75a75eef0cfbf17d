import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/load.js';
import { ConfigError } from '../../../src/errors.js';
import { createScorer } from '../../../src/scorers/core/scorer.js';
import { labelOf } from '../../../src/scorers/descriptor.js';
import { createScorerRegistry } from '../../../src/scorers/registry.js';
import { agentRun } from '../code/helpers.js';

const registry = createScorerRegistry();

function configIssues(scorers: Record<string, unknown>): Array<{ path: string; message: string }> {
  try {
    parseConfig({ scorers }, 'test.yaml', {}, { scorers: registry });
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return [...e.issues];
    throw e;
  }
}

describe('scorer registry', () => {
  it('builds code scorers from config entries with kind, direction, threshold and reason', async () => {
    const s = await registry.build('similarity', { type: 'content-similarity', threshold: 0.6 });
    expect(s).toMatchObject({ name: 'similarity', type: 'content-similarity', kind: 'code', direction: 'higher', threshold: 0.6, reason: 'on-fail' });
    expect((await s.scorer.run(agentRun('The quick brown fox', 'The quick brown cat'))).score).toBe(0.8);
    const strictCase = await registry.build('sim2', { type: 'content-similarity', ignoreCase: false });
    expect((await strictCase.scorer.run(agentRun('The Quick Brown Fox', 'the quick brown fox'))).score).toBe(0.5333333333333333);
    const traj = await registry.build('t', { type: 'trajectory', blacklistedTools: ['refund'], weights: { accuracy: 1 } });
    expect(traj.scorer.id).toBe('code-trajectory-scorer');
    const m = await registry.build('m', { type: 'matches', pattern: '\\d+°F', exact: false });
    expect((await m.scorer.run(agentRun('q', 'It is 72°F'))).score).toBe(1);
  });

  it('direction and labels per docs/records.md, "The score record"', () => {
    const directionOf = (type: string): unknown => {
      const d = registry.get(type)?.direction ?? 'higher';
      return typeof d === 'function' ? d({}) : d;
    };
    expect(directionOf('hallucination')).toBe('lower');
    expect(directionOf('toxicity')).toBe('lower');
    expect(directionOf('bias')).toBe('lower');
    expect(directionOf('content-similarity')).toBe('higher');
    expect(labelOf({ direction: 'lower', threshold: 0.5 }, 0.6)).toBe('fail');
    expect(labelOf({ direction: 'lower', threshold: 0.5 }, 0.5)).toBe('pass');
    expect(labelOf({ direction: 'higher', threshold: 0.5 }, 0.4)).toBe('fail');
    expect(labelOf({ direction: 'higher', threshold: 0.5 }, 0.5)).toBe('pass');
  });

  it('reports unknown types and bad options at scorers.<name>.<key>', () => {
    const issues = configIssues({
      sim: { type: 'content-similarity', ignoreCase: 'yes', bogus: 1 },
      nope: { type: 'no-such-type' },
      order: { type: 'tool-order', tools: [] },
      re: { type: 'matches', pattern: '(' },
      'billing-*': { type: 'tool-call-accuracy-code' },
      traj: { type: 'trajectory', steps: [{ name: 'a', children: { maxSteps: -1 } }] },
    });
    const paths = issues.map((i) => i.path);
    expect(paths).toContain('scorers.sim.ignoreCase');
    expect(paths).toContain('scorers.sim.bogus');
    expect(paths).toContain('scorers.nope.type');
    expect(paths).toContain('scorers.order.tools');
    expect(paths).toContain('scorers.re.pattern');
    expect(paths).toContain('scorers["billing-*"].expectedTool');
    expect(paths).toContain('scorers.traj.steps[0].children.maxSteps');
    expect(issues.find((i) => i.path === 'scorers.nope.type')?.message).toMatch(/unknown scorer type "no-such-type"/);
    expect(configIssues({ ok: { type: 'keyword-coverage', threshold: 0.3, reason: 'never' } })).toEqual([]);
  });

  it('buildScorer throws the same config error', async () => {
    await expect(registry.build('x', { type: 'tone', referenceTone: 5 })).rejects.toThrow(/scorers\.x\.referenceTone/);
  });

  it('lets other files register types (judge kind, context passed through)', async () => {
    const own = createScorerRegistry();
    own.define('test-judge', {
      kind: 'judge',
      direction: 'lower',
      options: z.strictObject({ scale: z.number().optional() }),
      create: (o, ctx) =>
        createScorer({ id: `judge-${ctx.name}`, description: String(ctx.judgeModel) }).generateScore(() => o.scale ?? 1),
    });
    expect(own.get('test-judge')?.kind).toBe('judge');
    const config = parseConfig({ scorers: { j: { type: 'test-judge', scale: 2 }, s: { type: 'completeness' } } }, 't', {}, { scorers: own });
    const built = await own.buildAll(config.scorers ?? {}, { judgeModel: 'gpt-test' });
    expect(built.map((b) => [b.name, b.kind, b.direction, b.scorer.id, b.scorer.description])).toEqual([
      ['j', 'judge', 'lower', 'judge-j', 'gpt-test'],
      ['s', 'code', 'higher', 'completeness-scorer', built[1]?.scorer.description],
    ]);
    const scorerKinds = Object.fromEntries(Object.entries(config.scorers ?? {}).map(([name, entry]) => [name, own.kindOf(entry.type)]));
    expect(scorerKinds).toEqual({ j: 'judge', s: 'code' });
  });
});
